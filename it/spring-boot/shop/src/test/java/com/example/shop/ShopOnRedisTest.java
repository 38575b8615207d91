package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.github.chash.redis.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shop as a new user runs it: a plain, non-Serializable record cached with {@code @Cacheable}
 * on three real Redis servers, with nothing chash-specific but the starter, Lettuce, a chash.yaml
 * and {@code chash.config}. Used over HTTP only: a second GET does not run the method, the value is
 * JSON in Redis without class names, {@code @CacheEvict} takes effect, and a stored value that
 * cannot be read shows in health and in {@code /actuator/chash}. The responses it reads are kept in
 * target/http/.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShopOnRedisTest {
  private static final List<RedisServerProcess> SERVERS = new ArrayList<>();

  /**
   * A guard against a hung server, not a latency claim: on a starved machine the first request
   * reached Spring's dispatcher 24 s after the application started (its servlet is initialized on
   * the first request), past a 10 s timeout, before any chash code ran.
   */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final HttpClient http = HttpClient.newHttpClient();

  @Value("${local.server.port}")
  private int port;

  /** Starts the three servers and writes the chash.yaml a user would, with their addresses. */
  @DynamicPropertySource
  static void chashYaml(DynamicPropertyRegistry properties) throws IOException {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (int i = 0; i < 3; i++) {
      RedisServerProcess server = RedisServerProcess.start();
      SERVERS.add(server);
      yaml.append("  - id: redis-")
          .append(i + 1)
          .append("\n    type: redis\n    uri: ")
          .append(server.uri())
          .append('\n');
    }
    yaml.append("caches:\n  products: { ttl: 10m }\n  tags: { ttl: 1m }\n");
    Path dir = Files.createTempDirectory("shop-");
    Path file = Files.writeString(dir.resolve("chash.yaml"), yaml, StandardCharsets.UTF_8);
    properties.add("chash.config", () -> file.toUri().toString());
  }

  @AfterAll
  static void stopServers() {
    SERVERS.forEach(RedisServerProcess::close);
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(REQUEST_TIMEOUT)
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response = send("GET", path);
    assertThat(response.statusCode()).as("GET " + path + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  private int bodyRuns(String method) throws Exception {
    Map<String, Integer> runs = JsonPath.read(get("/body-runs"), "$");
    return runs.getOrDefault(method, 0);
  }

  /** Every key on the three servers under the cache's prefix, with the bytes stored there. */
  private static Map<String, String> stored(String cache) {
    Map<String, String> values = new java.util.TreeMap<>();
    for (RedisServerProcess server : SERVERS) {
      for (String key : server.keys("chash:" + cache + ":*")) {
        values.put(key, new String(server.getBytes(key), StandardCharsets.ISO_8859_1));
      }
    }
    return values;
  }

  private static void keep(String name, String body) {
    try {
      Path dir = Path.of("target", "http");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name), body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @Order(1)
  void getTwice_runsTheBodyOnce_andRedisHoldsJsonWithoutClassNames() throws Exception {
    String first = get("/products/1");
    String second = get("/products/1");
    assertThat(second).isEqualTo(first);
    assertThat((String) JsonPath.read(second, "$.name")).isEqualTo("product 1");
    assertThat((String) JsonPath.read(second, "$.added")).isEqualTo("2026-01-01T00:00:01Z");
    assertThat(bodyRuns("find")).isEqualTo(1);

    Map<String, String> stored = stored("products");
    assertThat(stored).hasSize(1);
    String json = stored.values().iterator().next();
    keep("redis-products.txt", stored.toString());
    assertThat(json).contains("\"name\":\"product 1\"").doesNotContain("com.example", "@class");
    // after the entry's 20-byte header: the JSON itself, no JDK serialization stream around it
    assertThat(json.substring(20)).startsWith("{\"id\":1,");
  }

  @Test
  @Order(2)
  void aGenericListOfRecords_isReadBackAsThatList() throws Exception {
    String first = get("/products?tag=even");
    String second = get("/products?tag=even");
    assertThat(second).isEqualTo(first);
    assertThat((List<String>) JsonPath.read(second, "$[*].name"))
        .containsExactly("product 2", "product 4");
    assertThat(bodyRuns("tagged")).isEqualTo(1);
  }

  @Test
  @Order(3)
  void cacheEvict_makesTheNextGetRunTheBody() throws Exception {
    assertThat(send("DELETE", "/products/1").statusCode()).isEqualTo(200);
    // an evict leaves at most a tombstone for the migration window (issue 30), never the value
    assertThat(stored("products").values()).noneMatch(value -> value.contains("product 1"));
    get("/products/1");
    get("/products/1");
    assertThat(bodyRuns("find")).isEqualTo(2);
  }

  @Test
  @Order(4)
  void healthAndEndpoint_areCleanWhileNothingIsRefused() throws Exception {
    String health = get("/actuator/health");
    keep("health.json", health);
    assertThat((String) JsonPath.read(health, "$.components.chash.status")).isEqualTo("UP");
    assertThat((Map<String, Object>) JsonPath.read(health, "$.components.chash.details"))
        .doesNotContainKey("refused");
    String ring = get("/actuator/chash");
    keep("chash.json", ring);
    assertThat((List<Integer>) JsonPath.read(ring, "$.caches[*].counts.refused")).containsOnly(0);
  }

  @Test
  @Order(5)
  void storedJsonThatCannotBeRead_isAMiss_shownInHealthAndTheEndpoint() throws Exception {
    get("/products/5");
    Map<String, String> stored = stored("products");
    String key =
        stored.entrySet().stream()
            .filter(e -> e.getValue().contains("\"id\":5"))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    // JSON that is no Product, stored as chash stores JSON: plain, after the entry's header
    byte[] bytes = "{\"id\": \"not a number\"}".getBytes(StandardCharsets.UTF_8);
    for (RedisServerProcess server : SERVERS) {
      if (server.keys(key).contains(key)) {
        server.setEntry(key, bytes);
      }
    }
    int before = bodyRuns("find");
    assertThat((String) JsonPath.read(get("/products/5"), "$.name")).isEqualTo("product 5");
    assertThat(bodyRuns("find")).isEqualTo(before + 1);

    String health = get("/actuator/health");
    keep("health-refused.json", health);
    assertThat((String) JsonPath.read(health, "$.components.chash.status")).isEqualTo("DEGRADED");
    assertThat((Integer) JsonPath.read(health, "$.components.chash.details.refused.products"))
        .isEqualTo(1);
    assertThat((String) JsonPath.read(health, "$.components.chash.description"))
        .isEqualTo("all 3 nodes live; 1 value refused");
    // the application stays UP: DEGRADED is not in Boot's default status order
    assertThat((String) JsonPath.read(health, "$.status")).isEqualTo("UP");
    String ring = get("/actuator/chash");
    assertThat(
            (List<Integer>) JsonPath.read(ring, "$.caches[?(@.name=='products')].counts.refused"))
        .containsExactly(1);
  }
}
