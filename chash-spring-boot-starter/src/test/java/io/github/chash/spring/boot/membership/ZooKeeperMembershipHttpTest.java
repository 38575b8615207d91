package io.github.chash.spring.boot.membership;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.chash.membership.MembershipFollower;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Boot web application configured with {@code chash.membership.source=zookeeper} against a real
 * ZooKeeper server (Curator's {@code TestingServer}, in-process on a free port): its cache manager
 * follows the znode, and {@code /actuator/health} over HTTP reports what it follows.
 */
class ZooKeeperMembershipHttpTest {
  private static final String PATH = "/chash/nodes";

  private TestingServer server;
  private CuratorFramework writer;
  private ConfigurableApplicationContext app;

  @BeforeEach
  void start() throws Exception {
    server = new TestingServer(true);
    writer = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
    writer.start();
    writer.create().creatingParentsIfNeeded().forPath(PATH, nodes("shard-a", "shard-b"));
    app =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                "server.port=0",
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always",
                "chash.membership.source=zookeeper",
                "chash.membership.zookeeper.connect-string=" + server.getConnectString(),
                "chash.membership.zookeeper.path=" + PATH,
                "chash.membership.zookeeper.session-timeout=10s")
            .run();
  }

  @AfterEach
  void stop() throws Exception {
    if (app != null) {
      app.close();
    }
    writer.close();
    server.close();
  }

  private static byte[] nodes(String... ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      yaml.append("  - { id: ").append(id).append(" }\n");
    }
    return yaml.toString().getBytes(UTF_8);
  }

  private List<String> ids() {
    return RunningApp.ids(app);
  }

  private JsonNode chashHealth() throws Exception {
    return RunningApp.chashHealth(app);
  }

  @Test
  void theCacheManagerFollowsTheZnode_andHealthShowsTheEpochItRuns() throws Exception {
    MembershipFollower follower = app.getBean(MembershipFollower.class);
    Until.holds(
        "the znode's first state applied", () -> ids().equals(List.of("shard-a", "shard-b")));

    long epoch = writer.setData().forPath(PATH, nodes("shard-a", "shard-b", "shard-d")).getMzxid();
    // the manager moves a moment before the follower's status does: wait for both
    long millis =
        Until.holds(
            "the added node followed, and its epoch in the status",
            () ->
                ids().equals(List.of("shard-a", "shard-b", "shard-d"))
                    && follower.status().appliedEpoch() == epoch);
    System.out.printf("zookeeper change followed by the Boot app in %d ms%n", millis);

    JsonNode chash = chashHealth();
    JsonNode membership = chash.path("details").path("membership");
    assertThat(chash.path("status").asText()).as(chash.toString()).isEqualTo("UP");
    assertThat(membership.path("source").asText())
        .isEqualTo("zookeeper " + server.getConnectString() + " " + PATH);
    assertThat(membership.path("state").asText()).isEqualTo("CONNECTED");
    assertThat(membership.path("appliedEpoch").asLong()).isEqualTo(epoch);
    assertThat(membership.path("latestEpoch").asLong()).isEqualTo(epoch);
    assertThat(membership.path("appliedRevision").asText()).startsWith("mzxid 0x");
    assertThat(membership.path("behind").asBoolean(true)).isFalse();
    assertThat(follower.status().appliedEpoch()).isEqualTo(epoch);
  }

  @Test
  void aBadStateOrALostServer_keepTheRing_andHealthIsDegradedWithWhy() throws Exception {
    Until.holds(
        "the znode's first state applied", () -> ids().equals(List.of("shard-a", "shard-b")));
    MembershipFollower follower = app.getBean(MembershipFollower.class);
    long applied = follower.status().appliedEpoch();

    long bad =
        writer.setData().forPath(PATH, "nodes: [{id: x, weight: -1}]".getBytes(UTF_8)).getMzxid();
    Until.holds("the bad state seen", () -> follower.status().latestEpoch() == bad);
    RunningApp.assertBehind(app, applied, bad, "weight");
    assertThat(ids()).containsExactly("shard-a", "shard-b");

    server.stop();
    Until.holds(
        "the lost server seen", () -> follower.status().state().name().equals("UNREACHABLE"));
    JsonNode lost = chashHealth();
    assertThat(lost.path("status").asText()).isEqualTo("DEGRADED");
    assertThat(lost.path("description").asText()).contains("membership source unreachable since");
    assertThat(lost.path("details").path("membership").path("state").asText())
        .isEqualTo("UNREACHABLE");
    assertThat(ids()).containsExactly("shard-a", "shard-b");
  }

  /**
   * A Boot web application with nothing of its own: the test chash.yaml, then the znode's nodes.
   */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
