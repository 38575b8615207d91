package io.github.chash.spring.boot.membership;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.github.chash.etcd.EtcdServerProcess;
import io.github.chash.membership.MembershipFollower;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cache.CacheManager;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Boot web application configured with {@code chash.membership.source=etcd} against a real
 * etcd-server process (on free loopback ports, skipped where {@code etcd} is not on the PATH unless
 * {@code CHASH_REQUIRE_SERVERS=1}): its cache manager follows a key, and {@code /actuator/health}
 * over HTTP reports what it follows, and that it runs on its last ring while etcd is gone.
 */
class EtcdMembershipHttpIT {
  private static final String KEY = "/chash/ring";

  @TempDir Path dir;
  private EtcdServerProcess etcd;
  private Client writer;
  private ConfigurableApplicationContext app;

  @BeforeEach
  void start() throws Exception {
    etcd = new EtcdServerProcess(dir);
    writer = Client.builder().endpoints(etcd.endpoint()).build();
    put(nodes("shard-a", "shard-b"));
    app =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                "server.port=0",
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always",
                "chash.membership.source=etcd",
                "chash.membership.etcd.endpoints=" + etcd.endpoint(),
                "chash.membership.etcd.key=" + KEY,
                "chash.membership.etcd.probe-interval=250ms")
            .run();
  }

  @AfterEach
  void stop() {
    try {
      if (app != null) {
        app.close();
      }
    } finally {
      try {
        if (writer != null) {
          writer.close();
        }
      } finally {
        if (etcd != null) {
          etcd.close();
        }
      }
    }
  }

  private static String nodes(String... ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      yaml.append("  - { id: ").append(id).append(" }\n");
    }
    return yaml.toString();
  }

  /** Puts the key's value; returns its mod revision: the epoch the app's follower applies. */
  private long put(String value) throws Exception {
    return writer
        .getKVClient()
        .put(ByteSequence.from(KEY, UTF_8), ByteSequence.from(value, UTF_8))
        .get(30, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  /** Puts; returns the milliseconds until the manager runs exactly {@code ids}. */
  private long followed(String... ids) throws Exception {
    long begin = System.nanoTime();
    put(nodes(ids));
    Until.holds("the manager on " + List.of(ids), () -> ids().equals(List.of(ids)));
    return (System.nanoTime() - begin) / 1_000_000;
  }

  private List<String> ids() {
    return RunningApp.ids(app);
  }

  private JsonNode chashHealth() throws Exception {
    return RunningApp.chashHealth(app);
  }

  /** A put and a get through the application's Spring CacheManager: the ring serves. */
  private void serves(String key) {
    var users = app.getBean(CacheManager.class).getCache("users");
    assertThat(users).isNotNull();
    users.put(key, "value of " + key);
    assertThat(users.get(key, String.class)).isEqualTo("value of " + key);
  }

  @Test
  void theCacheManagerFollowsTheKey_andHealthShowsTheEpochItRuns() throws Exception {
    MembershipFollower follower = app.getBean(MembershipFollower.class);
    Until.holds("the key's first state applied", () -> ids().equals(List.of("shard-a", "shard-b")));

    // a node joins and leaves, ten times: how long from the put returning until the application's
    // manager runs the new nodes
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      millis.add(followed("shard-a", "shard-b", "shard-d"));
      millis.add(followed("shard-a", "shard-b"));
    }
    Collections.sort(millis);
    System.out.printf(
        "etcd change followed by the Boot app over %d changes: min %d ms, median %d ms,"
            + " max %d ms%n",
        millis.size(), millis.get(0), millis.get(millis.size() / 2), millis.get(millis.size() - 1));

    long epoch = put(nodes("shard-a", "shard-b", "shard-d"));
    // the manager moves a moment before the follower's status does: wait for both
    Until.holds(
        "the added node followed, and its epoch in the status",
        () ->
            ids().equals(List.of("shard-a", "shard-b", "shard-d"))
                && follower.status().appliedEpoch() == epoch);

    JsonNode chash = chashHealth();
    JsonNode membership = chash.path("details").path("membership");
    assertThat(chash.path("status").asText()).as(chash.toString()).isEqualTo("UP");
    assertThat(membership.path("source").asText()).isEqualTo("etcd key " + KEY);
    assertThat(membership.path("state").asText()).isEqualTo("CONNECTED");
    assertThat(membership.path("appliedEpoch").asLong()).isEqualTo(epoch);
    assertThat(membership.path("latestEpoch").asLong()).isEqualTo(epoch);
    assertThat(membership.path("appliedRevision").asText()).isEqualTo("mod revision " + epoch);
    assertThat(membership.path("behind").asBoolean(true)).isFalse();
    assertThat(follower.status().appliedEpoch()).isEqualTo(epoch);
  }

  @Test
  void aBadStateOrAStoppedServer_keepTheRing_andHealthIsDegradedUntilItCatchesUp()
      throws Exception {
    Until.holds("the key's first state applied", () -> ids().equals(List.of("shard-a", "shard-b")));
    MembershipFollower follower = app.getBean(MembershipFollower.class);
    long applied = follower.status().appliedEpoch();

    long bad = put("nodes: [{id: x, weight: -1}]");
    Until.holds("the bad state seen", () -> follower.status().latestEpoch() == bad);
    RunningApp.assertBehind(app, applied, bad, KEY, "weight");
    assertThat(ids()).containsExactly("shard-a", "shard-b");

    long good = put(nodes("shard-a", "shard-b", "shard-d"));
    Until.holds("the good state back", () -> follower.status().appliedEpoch() == good);
    assertThat(chashHealth().path("status").asText()).isEqualTo("UP");

    etcd.stop();
    Until.holds(
        "the stopped server seen", () -> follower.status().state().name().equals("UNREACHABLE"));
    JsonNode lost = chashHealth();
    assertThat(lost.path("status").asText()).as(lost.toString()).isEqualTo("DEGRADED");
    assertThat(lost.path("description").asText()).contains("membership source unreachable since");
    JsonNode lostMembership = lost.path("details").path("membership");
    assertThat(lostMembership.path("state").asText()).isEqualTo("UNREACHABLE");
    assertThat(lostMembership.path("appliedEpoch").asLong()).isEqualTo(good);
    assertThat(ids()).containsExactly("shard-a", "shard-b", "shard-d");
    serves("while etcd is stopped");

    // back on the same port and data; a change put as soon as it listens (by a new client: the
    // old one's channel may still be backing off) reaches the manager once the source reconnects
    long begin = System.nanoTime();
    etcd.start();
    writer.close();
    writer = Client.builder().endpoints(etcd.endpoint()).build();
    long after = put(nodes("shard-a", "shard-e"));
    long millis =
        Until.holds(
            "the change put after the restart followed",
            () ->
                ids().equals(List.of("shard-a", "shard-e"))
                    && follower.status().appliedEpoch() == after
                    && follower.status().state().name().equals("CONNECTED"));
    System.out.printf(
        "etcd restarted: the Boot app caught up %d ms after the put, %d ms after the start%n",
        millis, (System.nanoTime() - begin) / 1_000_000);
    JsonNode back = chashHealth();
    assertThat(back.path("status").asText()).as(back.toString()).isEqualTo("UP");
    assertThat(back.path("details").path("membership").path("state").asText())
        .isEqualTo("CONNECTED");
    assertThat(back.path("details").path("membership").path("appliedEpoch").asLong())
        .isEqualTo(after);
    serves("after etcd is back");
  }

  /** A Boot web application with nothing of its own: the test chash.yaml, then the key's nodes. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
