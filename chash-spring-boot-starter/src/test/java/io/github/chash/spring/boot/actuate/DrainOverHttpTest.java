package io.github.chash.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.ring.Node;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The drain/readmit POST of {@code /actuator/chash} over real HTTP, in a Boot web application whose
 * {@code chash.yaml} is watched ({@code chash.watch}): issue 43's reproduction, a reload after a
 * drain, and the reason a POST missing {@code node} or {@code action} is refused with.
 */
class DrainOverHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static String file(String usersTtl, String... nodes) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : nodes) {
      yaml.append("  - id: ").append(id).append('\n');
    }
    return yaml.append("caches:\n  users: { ttl: ").append(usersTtl).append(" }\n").toString();
  }

  @Test
  void reloadChangingOnlyATtl_keepsTheDrainedNodeOut_untilItIsReadmitted() throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, file("10m", "shard-a", "shard-b", "shard-c"), StandardCharsets.UTF_8);
    try (EndpointHttp app =
        EndpointHttp.start(App.class, "chash.config=" + file.toUri(), "chash.watch=50ms")) {
      ShardedCacheManager manager = app.manager();
      HttpResponse<String> drain = app.post("{\"node\": \"shard-b\", \"action\": \"drain\"}");
      assertThat(drain.statusCode()).as(drain.body()).isEqualTo(200);
      assertThat(drained(json(app.get()))).containsExactly("shard-b");

      // issue 43: only a TTL changes; the reload used to add shard-b back
      reload(file, file("20m", "shard-a", "shard-b", "shard-c"));

      assertThat(ringIds(manager)).containsExactly("shard-a", "shard-c");
      JsonNode ring = json(app.get());
      assertThat(nodeIds(ring)).containsExactly("shard-a", "shard-c");
      assertThat(drained(ring)).as("the endpoint and the ring agree").containsExactly("shard-b");
      assertThat(ring.get("configProblem").isNull()).as(ring.toString()).isTrue();

      // readmit used to answer 400 "duplicate node id"
      HttpResponse<String> readmit = app.post("{\"node\": \"shard-b\", \"action\": \"readmit\"}");
      assertThat(readmit.statusCode()).as(readmit.body()).isEqualTo(200);
      assertThat(nodeIds(JSON.readTree(readmit.body())))
          .containsExactly("shard-a", "shard-b", "shard-c");
      assertThat(drained(json(app.get()))).isEmpty();

      // a file that no longer names a drained node forgets the drain
      assertThat(app.post("{\"node\": \"shard-b\", \"action\": \"drain\"}").statusCode())
          .isEqualTo(200);
      reload(file, file("20m", "shard-a", "shard-c"));
      assertThat(drained(json(app.get()))).isEmpty();
      HttpResponse<String> forgotten = app.post("{\"node\": \"shard-b\", \"action\": \"readmit\"}");
      assertThat(forgotten.statusCode()).isEqualTo(400);
      assertThat(JSON.readTree(forgotten.body()).get("error").asText())
          .isEqualTo("node \"shard-b\" is not drained; drained nodes are []");
      assertThat(ringIds(manager)).containsExactly("shard-a", "shard-c");
    }
  }

  @Test
  void missingNodeOrAction_answers400NamingIt() throws Exception {
    try (EndpointHttp app = EndpointHttp.start(App.class)) {
      String shape =
          ": the body must be {\"node\": \"<id>\", \"action\": \"drain\" or \"readmit\"}";
      assertRefused(app, "{\"action\": \"drain\"}", "missing \"node\"" + shape);
      assertRefused(app, "{\"node\": \"shard-b\"}", "missing \"action\"" + shape);
      assertRefused(app, "{}", "missing \"node\" and \"action\"" + shape);
      assertRefused(app, "{\"node\": null, \"action\": \"drain\"}", "missing \"node\"" + shape);
      assertThat(ringIds(app.manager())).containsExactly("shard-a", "shard-b", "shard-c");
    }
  }

  private void assertRefused(EndpointHttp app, String body, String error) throws Exception {
    HttpResponse<String> post = app.post(body);
    assertThat(post.statusCode()).as("POST %s: %s", body, post.body()).isEqualTo(400);
    assertThat(JSON.readTree(post.body()).path("error").asText())
        .as("POST %s: %s", body, post.body())
        .isEqualTo(error);
  }

  /**
   * Writes the file and waits until the manager applied it: the membership logs each applied
   * configuration, the same as the ring, so a reload that changes no node is seen too.
   */
  private static void reload(Path file, String content) throws Exception {
    Logger membershipLog = Logger.getLogger("io.github.chash.cache.Membership");
    CountDownLatch applied = new CountDownLatch(1);
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getMessage() != null && record.getMessage().startsWith("reconfigured")) {
              applied.countDown();
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    membershipLog.addHandler(handler);
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
      assertThat(applied.await(20, TimeUnit.SECONDS))
          .as("the watch to apply the changed file")
          .isTrue();
    } finally {
      membershipLog.removeHandler(handler);
    }
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static List<String> nodeIds(JsonNode ring) {
    List<String> ids = new ArrayList<>();
    ring.get("nodes").forEach(n -> ids.add(n.get("id").asText()));
    return ids;
  }

  private static List<String> drained(JsonNode ring) {
    List<String> ids = new ArrayList<>();
    ring.get("drained").forEach(n -> ids.add(n.asText()));
    return ids;
  }

  private static List<String> ringIds(ShardedCacheManager manager) {
    return manager.ring().nodes().stream().map(Node::id).sorted().toList();
  }

  /** A Boot web application with nothing of its own: the ring of {@code chash.config}. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
