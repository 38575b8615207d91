package com.example.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.util.ClassUtils;

/**
 * The catalog started as a real application on a free port and used over HTTP only: each product's
 * body runs once, puts and evictions take effect, and the cache metrics, health and caches endpoint
 * answer. The same test runs on Caffeine and, unchanged, on chash; where chash adds something (its
 * health contributor, node meters, the chash endpoint) it checks that too. The responses it reads
 * are kept in target/http/ for the record.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CatalogOverHttpTest {
  /** The switch: the chash starter on the class path, nothing else changed. */
  private static final boolean CHASH =
      ClassUtils.isPresent("io.github.chash.spring.cache.ChashCacheManager", null);

  private final HttpClient http = HttpClient.newHttpClient();

  @Value("${local.server.port}")
  private int port;

  private HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(java.time.Duration.ofSeconds(10))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response = send("GET", path);
    assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
    return response.body();
  }

  private int bodyRuns(String method) throws Exception {
    Map<String, Integer> runs = JsonPath.read(get("/body-runs"), "$");
    return runs.getOrDefault(method, 0);
  }

  private double metric(String name, String... tags) throws Exception {
    StringBuilder path = new StringBuilder("/actuator/metrics/" + name);
    for (int i = 0; i < tags.length; i++) {
      path.append(i == 0 ? "?" : "&").append("tag=").append(tags[i]);
    }
    Number value = JsonPath.read(get(path.toString()), "$.measurements[0].value");
    return value.doubleValue();
  }

  private static void keep(String name, String body) throws IOException {
    Path dir = Path.of("target", "http");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(name), body);
  }

  @Test
  @Order(1)
  void cacheable_runsEachProductsBodyOnce() throws Exception {
    for (int round = 0; round < 3; round++) {
      for (int id = 1; id <= 10; id++) {
        assertThat((String) JsonPath.read(get("/products/" + id), "$.name"))
            .isEqualTo("product " + id);
      }
    }
    assertThat(bodyRuns("find")).isEqualTo(10);
    assertThat(metric("cache.gets", "cache:products", "result:hit")).isEqualTo(20);
    assertThat(metric("cache.gets", "cache:products", "result:miss")).isEqualTo(10);
  }

  @Test
  @Order(2)
  void cachePutAndCacheEvict_takeEffect() throws Exception {
    assertThat(send("PUT", "/products/3?name=renamed").statusCode()).isEqualTo(200);
    assertThat((String) JsonPath.read(get("/products/3"), "$.name")).isEqualTo("renamed");
    assertThat(bodyRuns("find")).isEqualTo(10);

    assertThat(send("DELETE", "/products/4").statusCode()).isEqualTo(200);
    assertThat((String) JsonPath.read(get("/products/4"), "$.name")).isEqualTo("product 4");
    assertThat(bodyRuns("find")).isEqualTo(11);
  }

  @Test
  @Order(3)
  void conditionAndUnless_keepResultsOut() throws Exception {
    assertThat(send("GET", "/products?name=renamed").statusCode()).isEqualTo(200);
    assertThat(send("GET", "/products?name=renamed").statusCode()).isEqualTo(200);
    assertThat(send("GET", "/products?name=nothing").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/products?name=nothing").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/products?name=ab").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/products?name=ab").statusCode()).isEqualTo(404);
    // cached once; a null result is not (unless); a short name bypasses the cache (condition)
    assertThat(bodyRuns("byName")).isEqualTo(5);
  }

  @Test
  @Order(4)
  void syncCacheable_loadsOncePerKeyUnderConcurrentRequests() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> prices = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        prices.add(pool.submit(() -> get("/products/77/price")));
      }
      for (Future<String> price : prices) {
        assertThat(price.get(30, TimeUnit.SECONDS)).isEqualTo("7700");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(bodyRuns("price")).isEqualTo(1);
  }

  @Test
  @Order(5)
  void cacheEvictAllEntries_emptiesTheCaches() throws Exception {
    assertThat(send("POST", "/products/reload").statusCode()).isEqualTo(200);
    get("/products/1");
    get("/products/77/price");
    assertThat(bodyRuns("find")).isEqualTo(12);
    assertThat(bodyRuns("price")).isEqualTo(2);
  }

  @Test
  @Order(6)
  void actuator_showsTheCachesHealthAndMetrics() throws Exception {
    String caches = get("/actuator/caches");
    keep("caches.json", caches);
    String target = JsonPath.read(caches, "$.cacheManagers.cacheManager.caches.products.target");
    assertThat(target).contains(CHASH ? "io.github.chash" : "caffeine");
    assertThat((Map<String, Object>) JsonPath.read(caches, "$.cacheManagers.cacheManager.caches"))
        .containsOnlyKeys("products", "prices");

    String health = get("/actuator/health");
    keep("health.json", health);
    assertThat((String) JsonPath.read(health, "$.status")).isEqualTo("UP");

    StringBuilder metrics = new StringBuilder();
    // explicit evictions: Caffeine has none to count (cache.evictions are its size and expiry
    // evictions); chash counts them as cache.removals, as Spring Boot's Redis cache meters do
    for (String name :
        new String[] {"cache.gets", "cache.puts", CHASH ? "cache.removals" : "cache.evictions"}) {
      metrics.append(get("/actuator/metrics/" + name + "?tag=cache:products")).append('\n');
    }
    if (CHASH) {
      for (String name :
          new String[] {"chash.node.live", "chash.node.errors", "chash.node.ejections"}) {
        metrics.append(get("/actuator/metrics/" + name)).append('\n');
      }
    }
    keep("metrics.json", metrics.toString());
    assertThat(metric("cache.gets", "cache:products", "result:hit")).isGreaterThanOrEqualTo(20);
  }

  @Test
  @Order(7)
  void chash_addsItsHealthNodeMetersAndEndpoint() throws Exception {
    if (!CHASH) {
      assertThat(send("GET", "/actuator/chash").statusCode()).isEqualTo(404);
      return;
    }
    String health = get("/actuator/health");
    assertThat((String) JsonPath.read(health, "$.components.chash.status")).isEqualTo("UP");
    assertThat((Map<String, Object>) JsonPath.read(health, "$.components.chash.details.nodes"))
        .containsOnlyKeys("shard-a", "shard-b", "shard-c");

    // puts: the 10 first finds, the rename, product 4 after its DELETE, the name search that was
    // cached, product 1 after the reload; removals: the DELETE and the reload's clear on each of
    // the 3 nodes
    assertThat(metric("cache.puts", "cache:products")).isEqualTo(14);
    assertThat(metric("cache.removals", "cache:products")).isEqualTo(4);
    assertThat(send("GET", "/actuator/metrics/cache.evictions").statusCode()).isEqualTo(404);
    for (String node : new String[] {"shard-a", "shard-b", "shard-c"}) {
      assertThat(metric("chash.node.live", "node:" + node)).isEqualTo(1);
      assertThat(metric("chash.node.errors", "node:" + node)).isZero();
      assertThat(metric("chash.node.ejections", "node:" + node)).isZero();
    }

    String ring = get("/actuator/chash");
    keep("chash.json", ring);
    List<Number> shares = JsonPath.read(ring, "$.nodes[*].share");
    assertThat(shares.stream().mapToDouble(Number::doubleValue).sum())
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat((List<String>) JsonPath.read(ring, "$.nodes[*].state"))
        .containsExactly("live", "live", "live");

    // a refused change answers 400 with its reason; a drain is listed until its readmission
    HttpResponse<String> unknown = post("/actuator/chash", change("zz", "drain"));
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat((String) JsonPath.read(unknown.body(), "$.error")).startsWith("unknown node \"zz\"");
    HttpResponse<String> action = post("/actuator/chash", change("shard-a", "explode"));
    assertThat(action.statusCode()).isEqualTo(400);
    assertThat((String) JsonPath.read(action.body(), "$.error"))
        .isEqualTo("action must be drain or readmit; was \"explode\"");
    HttpResponse<String> drain = post("/actuator/chash", change("shard-c", "drain"));
    assertThat(drain.statusCode()).isEqualTo(200);
    assertThat((List<String>) JsonPath.read(get("/actuator/chash"), "$.drained"))
        .containsExactly("shard-c");
    assertThat(post("/actuator/chash", change("shard-c", "readmit")).statusCode()).isEqualTo(200);
    assertThat((List<String>) JsonPath.read(get("/actuator/chash"), "$.drained")).isEmpty();
  }

  private static String change(String node, String action) {
    return "{\"node\":\"" + node + "\",\"action\":\"" + action + "\"}";
  }

  private HttpResponse<String> post(String path, String json) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .timeout(java.time.Duration.ofSeconds(10))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
