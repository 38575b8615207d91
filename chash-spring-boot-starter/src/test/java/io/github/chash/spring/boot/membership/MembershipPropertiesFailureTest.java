package io.github.chash.spring.boot.membership;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.membership.MembershipFollower;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.github.chash.spring.boot.ChashMembershipAutoConfiguration;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A wrong or missing {@code chash.membership.*} value fails the startup with an exception that
 * names the property (Boot's failure analysis prints it as "Invalid value ... for configuration
 * property ..."), before any client connects; and no source set means no follower.
 */
class MembershipPropertiesFailureTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  ChashAutoConfiguration.class, ChashMembershipAutoConfiguration.class));

  private void assertRefused(String property, String reason, String... properties) {
    runner
        .withPropertyValues(properties)
        .run(
            context -> {
              Throwable failure = context.getStartupFailure();
              assertThat(failure)
                  .as("the startup with %s", String.join(", ", properties))
                  .isNotNull();
              Throwable cause = failure;
              while (!(cause instanceof InvalidConfigurationPropertyValueException)
                  && cause.getCause() != null) {
                cause = cause.getCause();
              }
              assertThat(cause)
                  .as(failure.toString())
                  .isInstanceOf(InvalidConfigurationPropertyValueException.class);
              InvalidConfigurationPropertyValueException invalid =
                  (InvalidConfigurationPropertyValueException) cause;
              assertThat(invalid.getName()).isEqualTo(property);
              assertThat(invalid.getReason()).contains(reason);
            });
  }

  @Test
  void zooKeeperWithoutAPath_namesThePath() {
    assertRefused(
        "chash.membership.zookeeper.path",
        "must be set, e.g. chash.membership.zookeeper.path=/chash/nodes",
        "chash.membership.source=zookeeper",
        "chash.membership.zookeeper.connect-string=127.0.0.1:1");
  }

  @Test
  void zooKeeperPathWithoutALeadingSlash_namesThePath() {
    assertRefused(
        "chash.membership.zookeeper.path",
        "starts with /",
        "chash.membership.source=zookeeper",
        "chash.membership.zookeeper.connect-string=127.0.0.1:1",
        "chash.membership.zookeeper.path=chash/nodes");
  }

  @Test
  void etcdWithKeyAndPrefix_namesThemBoth() {
    assertRefused(
        "chash.membership.etcd.prefix",
        "set exactly one of chash.membership.etcd.key",
        "chash.membership.source=etcd",
        "chash.membership.etcd.endpoints=http://127.0.0.1:1",
        "chash.membership.etcd.key=/chash/ring",
        "chash.membership.etcd.prefix=/chash/nodes/");
  }

  @Test
  void etcdWithoutEndpointsOrWithAZeroProbe_namesTheProperty() {
    assertRefused(
        "chash.membership.etcd.endpoints",
        "client URLs",
        "chash.membership.source=etcd",
        "chash.membership.etcd.key=/chash/ring");
    assertRefused(
        "chash.membership.etcd.probe-interval",
        "positive",
        "chash.membership.source=etcd",
        "chash.membership.etcd.endpoints=http://127.0.0.1:1",
        "chash.membership.etcd.key=/chash/ring",
        "chash.membership.etcd.probe-interval=0s");
  }

  @Test
  void kubernetesUriTemplateWithAnUnknownPlaceholder_namesTheUri() {
    assertRefused(
        "chash.membership.kubernetes.uri",
        "names {pod}",
        "chash.membership.source=kubernetes",
        "chash.membership.kubernetes.namespace=shop",
        "chash.membership.kubernetes.service=cache",
        "chash.membership.kubernetes.node-type=redis",
        "chash.membership.kubernetes.uri=redis://{pod}:6379");
  }

  @Test
  void aSourceAndAWatchedFile_areRefusedTogether() {
    assertRefused(
        "chash.membership.source",
        "chash.watch is set too",
        "chash.watch=1s",
        "chash.membership.source=zookeeper",
        "chash.membership.zookeeper.connect-string=127.0.0.1:1",
        "chash.membership.zookeeper.path=/chash/nodes");
  }

  @Test
  void anUnknownSource_failsBindingNamingTheProperty() {
    runner
        .withPropertyValues("chash.membership.source=consul")
        .run(
            context -> {
              assertThat(context.getStartupFailure()).isNotNull();
              assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("consul");
              assertThat(context.getStartupFailure()).hasMessageContaining("chash.membership");
            });
  }

  @Test
  void etcdOnAClosedPort_startsAndFollowsThePrefix_unreachable() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    runner
        .withPropertyValues(
            "chash.membership.source=etcd",
            "chash.membership.etcd.endpoints=http://127.0.0.1:" + closed,
            "chash.membership.etcd.prefix=/chash/nodes/",
            "chash.membership.etcd.probe-interval=100ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              MembershipFollower follower = context.getBean(MembershipFollower.class);
              assertThat(follower.status().source()).isEqualTo("etcd prefix /chash/nodes/");
              Until.holds(
                  "etcd on a closed port reported unreachable",
                  () -> follower.status().state().name().equals("UNREACHABLE"));
            });
  }

  @Test
  void noSource_noFollower() {
    runner.run(context -> assertThat(context).doesNotHaveBean(MembershipFollower.class));
  }
}
