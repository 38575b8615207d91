package io.github.chash.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipStatus;
import io.github.chash.membership.MembershipStatus.SourceState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A manager following a Service's EndpointSlices on fabric8's in-process API server (the mock
 * server in CRUD mode: lists, watches, updates and deletes as the API server answers them).
 */
class KubernetesSourceTest {
  private static final ChashConfig BASE =
      ChashConfigs.parse("nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n", "base");

  private static final String NAMESPACE = "shop";
  private static final String SERVICE = "cache";

  /** How long a change may take to arrive at most before the test fails; not the measured bound. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  /** The probe interval of the sources under test: short, so that a lost watch shows soon. */
  private static final Duration PROBE = Duration.ofMillis(100);

  private final List<AutoCloseable> closing = new ArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient writer;
  private ShardedCacheManager manager;
  private MembershipFollower follower;

  @BeforeEach
  void start() {
    server = startServer(0);
    writer = client(server.getPort());
  }

  @AfterEach
  void stop() throws Exception {
    Collections.reverse(closing);
    for (AutoCloseable c : closing) {
      c.close();
    }
    writer.close();
    server.destroy();
  }

  private static KubernetesMockServer startServer(int port) {
    KubernetesMockServer s =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    s.init(InetAddress.getLoopbackAddress(), port);
    return s;
  }

  private KubernetesClient client(int port) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("http://127.0.0.1:" + port)
            .withNamespace(NAMESPACE)
            .withRequestTimeout(2_000)
            .withConnectionTimeout(2_000)
            .withWatchReconnectInterval(100)
            .withRequestRetryBackoffLimit(1)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** A manager on {@link #BASE}, following the Service through a client of its own. */
  private MembershipFollower follow(ShardedCacheManager m, int port) {
    KubernetesClient client = client(port);
    MembershipFollower f =
        MembershipFollower.follow(
            m,
            BASE,
            KubernetesSource.service(client, NAMESPACE, SERVICE, NodeTemplate.local(), PROBE));
    closing.add(m);
    closing.add(client);
    closing.add(f);
    return f;
  }

  private void followFirst() {
    manager = ShardedCaches.create(BASE);
    follower = follow(manager, server.getPort());
  }

  static Endpoint ready(String pod, String ip) {
    return endpoint(pod, ip, true, false);
  }

  static Endpoint endpoint(String pod, String ip, boolean ready, boolean terminating) {
    return new EndpointBuilder()
        .withAddresses(ip)
        .withNewConditions()
        .withReady(ready)
        .withServing(ready || terminating)
        .withTerminating(terminating)
        .endConditions()
        .withNewTargetRef()
        .withKind("Pod")
        .withName(pod)
        .withNamespace(NAMESPACE)
        .endTargetRef()
        .build();
  }

  static EndpointSlice slice(String name, String service, Endpoint... endpoints) {
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NAMESPACE)
        .addToLabels(KubernetesSource.SERVICE_NAME_LABEL, service)
        .endMetadata()
        .withAddressType("IPv4")
        .addNewPort()
        .withName("redis")
        .withPort(6379)
        .withProtocol("TCP")
        .endPort()
        .withEndpoints(endpoints)
        .build();
  }

  /** Creates or replaces a slice, as the EndpointSlice controller would. */
  private void put(EndpointSlice slice) {
    var resource = writer.discovery().v1().endpointSlices().inNamespace(NAMESPACE).resource(slice);
    if (resource.get() == null) {
      resource.create();
    } else {
      resource.update();
    }
  }

  private List<String> ids(ShardedCacheManager m) {
    return m.nodeConfigs().stream().map(NodeConfig::id).toList();
  }

  private static String revisionOf(String... ids) {
    return KubernetesSource.revision(Arrays.stream(ids).map(NodeConfig::local).toList());
  }

  /**
   * Puts a slice, and returns how long the follower took to run exactly {@code ids}, in
   * nanoseconds.
   */
  private long converge(EndpointSlice slice, String... ids) throws InterruptedException {
    long begin = System.nanoTime();
    put(slice);
    String revision = revisionOf(ids);
    await(() -> revision.equals(follower.status().appliedRevision()));
    long took = System.nanoTime() - begin;
    assertThat(ids(manager)).containsExactly(ids);
    return took;
  }

  @Test
  void theManagerFollowsTheReadyEndpointsOfTheService() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    assertThat(follower.status().state()).isEqualTo(SourceState.CONNECTED);
    assertThat(follower.status().source()).isEqualTo("kubernetes shop/cache endpointslices");

    converge(
        slice(
            "cache-1",
            SERVICE,
            ready("p0", "10.0.0.1"),
            ready("p1", "10.0.0.2"),
            ready("p2", "10.0.0.3")),
        "p0",
        "p1",
        "p2");

    // not ready: out
    converge(
        slice(
            "cache-1",
            SERVICE,
            ready("p0", "10.0.0.1"),
            endpoint("p1", "10.0.0.2", false, false),
            ready("p2", "10.0.0.3")),
        "p0",
        "p2");

    // serving but terminating: out too, drained ahead of the pod's end
    converge(
        slice(
            "cache-1",
            SERVICE,
            ready("p0", "10.0.0.1"),
            ready("p1", "10.0.0.2"),
            endpoint("p2", "10.0.0.3", false, true)),
        "p0",
        "p1");

    // a second slice of the Service adds its endpoints; another Service's slice adds nothing
    put(slice("other-1", "other", ready("x0", "10.0.1.1")));
    converge(slice("cache-2", SERVICE, ready("p3", "10.0.0.4")), "p0", "p1", "p3");
  }

  @Test
  void noReadyEndpointKeepsTheLastGoodRingAndReportsIt() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    long applied = follower.status().appliedEpoch();

    put(slice("cache-1", SERVICE));
    await(() -> follower.status().problem() != null);
    MembershipStatus status = follower.status();
    assertThat(status.problem()).contains("no ready endpoints", "shop/cache");
    assertThat(status.behind()).isTrue();
    assertThat(status.appliedEpoch()).isEqualTo(applied);
    assertThat(ids(manager)).containsExactly("p0", "p1");

    // the slice deleted (the Service scaled to nothing): the same
    writer.discovery().v1().endpointSlices().inNamespace(NAMESPACE).withName("cache-1").delete();
    assertThat(ids(manager)).containsExactly("p0", "p1");

    // back, and even the same nodes as before clear the problem
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    await(() -> !follower.status().behind());
    assertThat(follower.status().problem()).isNull();
    assertThat(follower.status().appliedEpoch()).isGreaterThan(applied);
  }

  @Test
  void twoFollowersRunTheSameNodesUnderTheSameRevision() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    converge(slice("cache-2", SERVICE, ready("p2", "10.0.0.3")), "p0", "p1", "p2");

    // a JVM that starts later: its epoch counts its own changes, its revision is the same
    ShardedCacheManager second = ShardedCaches.create(BASE);
    MembershipFollower other = follow(second, server.getPort());
    await(() -> revisionOf("p0", "p1", "p2").equals(other.status().appliedRevision()));
    assertThat(ids(second)).isEqualTo(ids(manager));

    converge(
        slice("cache-2", SERVICE, ready("p2", "10.0.0.3"), ready("p4", "10.0.0.5")),
        "p0",
        "p1",
        "p2",
        "p4");
    await(() -> follower.status().appliedRevision().equals(other.status().appliedRevision()));
    assertThat(ids(second)).containsExactly("p0", "p1", "p2", "p4");
    assertThat(other.status().appliedEpoch()).isLessThan(follower.status().appliedEpoch());
  }

  @Test
  void aChangeThatMovesNoNodeKeepsTheEpoch() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    long epoch = follower.status().appliedEpoch();
    long ignored = follower.status().ignored();

    // p2 not ready yet: the slice changed, the node list did not
    put(
        slice(
            "cache-1",
            SERVICE,
            ready("p0", "10.0.0.1"),
            ready("p1", "10.0.0.2"),
            endpoint("p2", "10.0.0.3", false, false)));
    await(() -> follower.status().ignored() > ignored);
    assertThat(follower.status().appliedEpoch()).isEqualTo(epoch);
    assertThat(follower.status().latestEpoch()).isEqualTo(epoch);
    assertThat(follower.status().behind()).isFalse();
  }

  @Test
  void aStoppedApiServerLeavesTheRingAsItWas() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    long applied = follower.status().appliedEpoch();

    server.destroy();
    await(() -> follower.status().state() == SourceState.UNREACHABLE);
    MembershipStatus down = follower.status();
    assertThat(down.appliedEpoch()).isEqualTo(applied);
    assertThat(down.behind()).isFalse();
    assertThat(ids(manager)).containsExactly("p0", "p1");
  }

  @Test
  void anApiServerBackAfterAnOutageIsFollowedAgain() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    int port = server.getPort();
    writer.close();
    server.destroy();
    await(() -> follower.status().state() == SourceState.UNREACHABLE);

    // the same address again (a restarted API server), holding the state it holds now
    server = startServer(port);
    writer = client(port);
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p2", "10.0.0.3")), "p0", "p2");
    assertThat(follower.status().state()).isEqualTo(SourceState.CONNECTED);
    assertThat(follower.status().behind()).isFalse();
  }

  @Test
  void anApiServerThatIsNotUpYetIsReportedAndFollowedWhenItIs() throws Exception {
    int port = freePort();
    manager = ShardedCaches.create(BASE);
    follower = follow(manager, port);
    await(() -> follower.status().state() == SourceState.UNREACHABLE);
    assertThat(ids(manager)).containsExactly("a", "b");

    KubernetesMockServer late = startServer(port);
    closing.add(late::destroy);
    KubernetesClient lateWriter = client(port);
    closing.add(lateWriter);
    lateWriter
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace(NAMESPACE)
        .resource(slice("cache-1", SERVICE, ready("p0", "10.0.0.1")))
        .create();
    await(() -> revisionOf("p0").equals(follower.status().appliedRevision()));
    assertThat(follower.status().state()).isEqualTo(SourceState.CONNECTED);
    assertThat(ids(manager)).containsExactly("p0");
  }

  @Test
  void convergence() throws Exception {
    followFirst();
    converge(
        slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1");
    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nanos.add(
          converge(
              slice(
                  "cache-1",
                  SERVICE,
                  ready("p0", "10.0.0.1"),
                  ready("p1", "10.0.0.2"),
                  ready("p2", "10.0.0.3")),
              "p0",
              "p1",
              "p2"));
      nanos.add(
          converge(
              slice("cache-1", SERVICE, ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")),
              "p0",
              "p1"));
    }
    report(nanos);
    assertThat(follower.status().behind()).isFalse();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Polls the condition, every 10 ms, until it holds, for {@link #PATIENCE} at most. */
  private static void await(BooleanSupplier condition) {
    Awaitility.await("condition met in time")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(PATIENCE)
        .until(condition::getAsBoolean);
  }

  private static void report(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    System.out.printf(
        "kubernetes convergence over %d changes: min %.1f ms, median %.1f ms, max %.1f ms%n",
        sorted.size(),
        sorted.get(0) / 1e6,
        sorted.get(sorted.size() / 2) / 1e6,
        sorted.get(sorted.size() - 1) / 1e6);
  }
}
