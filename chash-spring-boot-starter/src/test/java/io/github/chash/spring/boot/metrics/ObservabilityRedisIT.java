package io.github.chash.spring.boot.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.ChashConfig;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipListener;
import io.github.chash.membership.MembershipSource;
import io.github.chash.membership.RingUpdate;
import io.github.chash.redis.RedisServerProcess;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * What a fleet's Prometheus and trace backend get from a Spring Boot application over a real
 * redis-server, with nothing but dependencies and properties: Boot's tracing bridge to
 * OpenTelemetry (micrometer-tracing-bridge-otel) turns each call that reaches the server into one
 * span, exported here to the SDK's in-memory exporter, with the attributes observability.md lists;
 * {@code /actuator/prometheus}, scraped over HTTP, has the meters, tags and sub-millisecond bucket
 * bounds it documents; and every query of the Grafana dashboard in the repository names a meter of
 * that scrape, with labels it has.
 */
class ObservabilityRedisIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path dir;

  private static RedisServerProcess redis;
  private static ConfigurableApplicationContext app;

  @BeforeAll
  static void start() throws Exception {
    redis = RedisServerProcess.start();
    Path yaml = dir.resolve("chash.yaml");
    Files.writeString(
        yaml,
        "nodes:\n"
            + "  - id: remote\n"
            + "    type: redis\n"
            + "    uri: "
            + redis.uri()
            + "\n"
            + "caches:\n"
            + "  users: {}\n"
            + "  products: {near: {maximumSize: 100, ttl: 1m}}\n");
    app =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                "server.port=0",
                "server.address=127.0.0.1",
                "management.endpoints.web.exposure.include=prometheus",
                "management.tracing.sampling.probability=1.0",
                "chash.config=" + yaml.toUri())
            .run();
    awaitTracking(app.getBean(ShardedCacheManager.class));
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  /**
   * Waits (up to a minute, on a loaded machine) until the node's invalidation channel is on, so
   * that a read from it is kept in the near cache: readiness, not an interleaving.
   */
  private static void awaitTracking(ShardedCacheManager manager) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!ManagerHooks.tracking(manager, "remote")) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("node remote never tracked its keys");
      }
      LockSupport.parkNanos(10_000_000);
    }
  }

  @Test
  void eachCallThatReachesTheServer_isOneSpan_withTheDatabaseConventions() throws Exception {
    Directory directory = app.getBean(Directory.class);
    InMemorySpanExporter exporter = app.getBean(InMemorySpanExporter.class);
    List<SpanData> spans;
    List<SpanData> nearHitSpans;
    synchronized (ObservabilityRedisIT.class) {
      flush();
      exporter.reset();
      directory.user(7); // a miss: the read, then the loaded value written
      directory.user(7); // a hit on the server
      directory.forget(7); // an eviction
      directory.product(7); // a miss and its write
      readUntilANearHit(directory, 7); // hits on the server until one is kept, then a near hit
      flush();
      spans = exporter.getFinishedSpanItems();
      exporter.reset();
      directory.product(7); // a near hit: no call, no span
      flush();
      nearHitSpans = exporter.getFinishedSpanItems();
    }
    assertThat(nearHitSpans).as("spans of a near hit").isEmpty();

    assertThat(spans)
        .extracting(SpanData::getName)
        .startsWith(
            "get users",
            "put users",
            "get users",
            "evict users",
            "get products",
            "put products",
            "get products")
        .hasSizeGreaterThanOrEqualTo(7);
    String port = Integer.toString(redis.port());
    for (SpanData span : spans) {
      String operation = span.getName().split(" ")[0];
      String cache = span.getName().split(" ")[1];
      assertThat(attributes(span))
          .as(span.getName())
          .containsEntry("db.system.name", "redis")
          .containsEntry("db.operation.name", operation)
          .containsEntry("db.namespace", cache)
          .containsEntry("cache.name", cache)
          .containsEntry("server.address", "127.0.0.1")
          .containsEntry("server.port", port)
          .containsEntry("network.peer.address", "127.0.0.1")
          .containsEntry("network.peer.port", port)
          .containsEntry("chash.node", "remote")
          .doesNotContainKey("error.type");
      assertThat(span.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
      assertThat(span.getKind()).as(span.getName()).isEqualTo(SpanKind.CLIENT);
    }
    // cache.hit and the result on reads; writes have no cache.hit
    assertThat(spans)
        .extracting(span -> span.getName() + " " + result(span))
        .startsWith(
            "get users miss hit=false",
            "put users ok",
            "get users hit hit=true",
            "evict users ok",
            "get products miss hit=false",
            "put products ok",
            "get products hit hit=true")
        .endsWith("get products hit hit=true");
    assertThat(spans.subList(6, spans.size()))
        .as("the reads until one was kept near: each a hit on the server")
        .extracting(span -> span.getName() + " " + result(span))
        .containsOnly("get products hit hit=true");
  }

  /**
   * Reads the product until the near cache answers one (at most 30 s). A value read from the server
   * is kept near, but the server's invalidation of the miss's own write may arrive after that read
   * and drop it (on a busy machine it did): a read after that is a server hit again. Readiness, not
   * an interleaving: it waits for the invalidations in flight to land.
   */
  private static void readUntilANearHit(Directory directory, long id) {
    var products = app.getBean(ShardedCacheManager.class).cache("products");
    long before = products.stats().nearHitCount();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    do {
      assertThat(System.nanoTime()).as("no read was answered near").isLessThan(deadline);
      directory.product(id);
    } while (products.stats().nearHitCount() == before);
  }

  private static String result(SpanData span) {
    Map<String, String> attributes = attributes(span);
    String hit = attributes.get("cache.hit");
    return attributes.get("chash.result") + (hit == null ? "" : " hit=" + hit);
  }

  @Test
  void prometheusScrape_hasTheDocumentedMetersTagsAndSubMillisecondBuckets() throws Exception {
    Directory directory = app.getBean(Directory.class);
    directory.user(1);
    directory.user(1);
    directory.product(1);
    readUntilANearHit(directory, 1);
    PrometheusText scrape = PrometheusText.parse(scrape());

    // every meter of observability.md's table, by its Prometheus name, with the documented tags
    Map<String, Set<String>> documented = documentedMeters();
    assertThat(documented).containsKeys("chash_node_calls_seconds_bucket", "cache_gets_total");
    documented.forEach(
        (name, labels) -> {
          assertThat(scrape.names()).as("exported meters").contains(name);
          assertThat(scrape.labelNames(name)).as(name + " labels").isEqualTo(labels);
        });

    // sub-millisecond bucket bounds, as documented, the same for every series
    assertThat(bounds(scrape, "chash_node_calls_seconds_bucket", "users", "get", "hit"))
        .containsExactly(
            "5.0E-5", "1.0E-4", "2.5E-4", "5.0E-4", "0.001", "0.0025", "0.005", "0.01", "0.025",
            "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "+Inf");
    assertThat(bounds(scrape, "chash_near_hits_seconds_bucket", "products", null, null))
        .containsExactly(
            "1.0E-6", "2.5E-6", "5.0E-6", "1.0E-5", "2.5E-5", "5.0E-5", "1.0E-4", "2.5E-4", "0.001",
            "+Inf");
    assertThat(bounds(scrape, "chash_cache_loads_seconds_bucket", "users", null, "success"))
        .containsExactly(
            "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5",
            "5.0", "10.0", "+Inf");
    String text = scrape();
    // near hits are all counted; their timer times one in 256, so its count may still be 0 here
    assertThat(text)
        .containsPattern("(?m)^chash_ring_epoch 3\\.0$")
        .containsPattern("(?m)^chash_ring_behind 0\\.0$")
        .containsPattern("chash_near_hits_seconds_count\\{cache=\"products\"\\} [0-9]")
        .containsPattern(
            "chash_cache_near_hits_total\\{cache=\"products\",cache_manager=\"cacheManager\"\\}"
                + " [1-9]");
  }

  /** The {@code le} bounds of one series, in the scrape's order. */
  private static List<String> bounds(
      PrometheusText scrape, String name, String cache, String operation, String result) {
    return scrape.samples(name).stream()
        .filter(l -> cache.equals(l.get("cache")))
        .filter(l -> operation == null || operation.equals(l.get("operation")))
        .filter(l -> result == null || result.equals(l.get("result")))
        .map(l -> l.get("le"))
        .toList();
  }

  /**
   * The meter table of observability.md as Prometheus names them: per sample name ({@code
   * chash_node_calls_seconds_bucket}, {@code cache_gets_total}, {@code chash_node_live}) its label
   * names.
   */
  private static Map<String, Set<String>> documentedMeters() throws Exception {
    Pattern tag = Pattern.compile("`([a-z.]+)(?:=[^`]*)?`");
    Map<String, Set<String>> out = new TreeMap<>();
    for (String line : Files.readAllLines(docs("markdown/observability.md"))) {
      // | `meter` | type | tags | what it counts |, with escaped pipes inside a cell
      String[] cells = line.split("(?<!\\\\)\\|");
      if (cells.length < 5 || !cells[2].strip().matches("counter|gauge|timer")) {
        continue;
      }
      Matcher m = Pattern.compile("`([a-z.]+)`").matcher(cells[1]);
      assertThat(m.find()).as(line).isTrue();
      Set<String> labels = new TreeSet<>();
      Matcher t = tag.matcher(cells[3]);
      while (t.find()) {
        labels.add(t.group(1).replace('.', '_'));
      }
      String name = m.group(1).replace('.', '_');
      switch (cells[2].strip()) {
        case "counter" -> out.put(name + "_total", labels);
        case "gauge" -> out.put(name, labels);
        default -> {
          Set<String> buckets = new TreeSet<>(labels);
          buckets.add("le");
          out.put(name + "_seconds_bucket", buckets);
          out.put(name + "_seconds_count", labels);
          out.put(name + "_seconds_sum", labels);
        }
      }
    }
    return out;
  }

  @Test
  void everyDashboardQuery_namesMetersAndLabelsTheAppExports() throws Exception {
    Directory directory = app.getBean(Directory.class);
    directory.user(2);
    directory.user(2);
    directory.product(2);
    directory.product(2);
    directory.product(2);
    PrometheusText scrape = PrometheusText.parse(scrape());

    JsonNode dashboard =
        new ObjectMapper().readTree(docs("resources/grafana/chash-dashboard.json").toFile());
    List<String> queries = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        continue;
      }
      assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
      for (JsonNode target : panel.path("targets")) {
        queries.add(target.path("expr").asText());
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      Matcher values =
          Pattern.compile("label_values\\((.+),\\s*(\\w+)\\)")
              .matcher(variable.path("query").path("query").asText());
      assertThat(values.matches()).as(variable.path("name").asText()).isTrue();
      queries.add("sum by (" + values.group(2) + ") (" + values.group(1) + ")");
    }
    assertThat(queries).hasSizeGreaterThan(10);

    for (String query : queries) {
      PromQl.Query parsed = PromQl.parse(query);
      assertThat(parsed.metrics()).as(query).isNotEmpty();
      Set<String> labelsOfQuery = new TreeSet<>();
      parsed
          .metrics()
          .forEach(
              (metric, labels) -> {
                assertThat(scrape.names()).as(query).contains(metric);
                assertThat(scrape.labelNames(metric)).as(query).containsAll(labels);
                labelsOfQuery.addAll(scrape.labelNames(metric));
              });
      assertThat(labelsOfQuery).as(query + " groups by").containsAll(parsed.groupedBy());
    }
  }

  /** A file of the site's sources, src-site at the top of the repository. */
  static Path docs(String path) {
    return Path.of("").toAbsolutePath().getParent().resolve("src-site").resolve(path);
  }

  private static void flush() {
    assertThat(
            app.getBean(SdkTracerProvider.class)
                .forceFlush()
                .join(30, TimeUnit.SECONDS)
                .isSuccess())
        .isTrue();
  }

  private static String scrape() throws Exception {
    String port = app.getEnvironment().getProperty("local.server.port");
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private static Map<String, String> attributes(SpanData span) {
    Map<String, String> out = new TreeMap<>();
    span.getAttributes().forEach((key, value) -> out.put(key.getKey(), value.toString()));
    return out;
  }

  /** The application: Boot's auto-configuration, chash's starter, a cached service. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @EnableCaching
  static class App {
    /** Where Boot's OpenTelemetry tracer sends its spans (any SpanExporter bean is used). */
    @Bean
    InMemorySpanExporter spanExporter() {
      return InMemorySpanExporter.create();
    }

    @Bean
    Directory directory() {
      return new Directory();
    }

    /** A follower whose source hands it the ring the application runs, as epoch 3. */
    @Bean(destroyMethod = "close")
    MembershipFollower membershipFollower(ShardedCacheManager manager, ChashConfig running) {
      return MembershipFollower.follow(
          manager,
          running,
          new MembershipSource() {
            @Override
            public String describe() {
              return "fixed";
            }

            @Override
            public void start(MembershipListener listener) {
              listener.connected();
              listener.update(RingUpdate.ofNodes(3, "r3", running.nodes()));
            }

            @Override
            public void close() {}
          });
    }
  }

  /** A service whose methods are cached. */
  public static class Directory {
    @Cacheable("users")
    public String user(long id) {
      return "user " + id;
    }

    @CacheEvict("users")
    public void forget(long id) {}

    @Cacheable("products")
    public String product(long id) {
      return "product " + id;
    }
  }
}
