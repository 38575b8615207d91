package io.github.chash.spring.boot.membership;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import io.github.chash.kubernetes.KubernetesSource;
import io.github.chash.membership.MembershipFollower;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Boot web application configured with {@code chash.membership.source=kubernetes} against
 * fabric8's API server in-process (the mock server in CRUD mode, on a free port): its cache manager
 * follows a Service's EndpointSlices, and {@code /actuator/health} over HTTP reports what it
 * follows. The application has no {@code KubernetesClient} of its own: the starter builds one as
 * fabric8 configures it, here from {@code kubernetes.*} system properties, as it would in a pod
 * from its service account.
 */
class KubernetesMembershipHttpTest {
  private static final String NAMESPACE = "shop";
  private static final String SERVICE = "cache";

  /** fabric8's configuration of the client the starter builds: this API server, no kubeconfig. */
  private static final Map<String, String> CLIENT_PROPERTIES =
      Map.of(
          Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false",
          Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false",
          Config.KUBERNETES_REQUEST_TIMEOUT_SYSTEM_PROPERTY, "2000",
          Config.KUBERNETES_CONNECTION_TIMEOUT_SYSTEM_PROPERTY, "2000",
          Config.KUBERNETES_WATCH_RECONNECT_INTERVAL_SYSTEM_PROPERTY, "100",
          Config.KUBERNETES_REQUEST_RETRY_BACKOFFLIMIT_SYSTEM_PROPERTY, "1");

  private KubernetesMockServer server;
  private KubernetesClient writer;
  private ConfigurableApplicationContext app;

  @BeforeEach
  void start() {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    String master = "http://127.0.0.1:" + server.getPort();
    writer =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(Config.empty())
                    .withMasterUrl(master)
                    .withNamespace(NAMESPACE)
                    .build())
            .build();
    put(slice(ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")));

    CLIENT_PROPERTIES.forEach(System::setProperty);
    System.setProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY, master);
    app =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                "server.port=0",
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always",
                "chash.membership.source=kubernetes",
                "chash.membership.kubernetes.namespace=" + NAMESPACE,
                "chash.membership.kubernetes.service=" + SERVICE,
                "chash.membership.kubernetes.node-type=local",
                "chash.membership.kubernetes.probe-interval=100ms")
            .run();
  }

  @AfterEach
  void stop() {
    if (app != null) {
      app.close();
    }
    CLIENT_PROPERTIES.keySet().forEach(System::clearProperty);
    System.clearProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY);
    writer.close();
    server.destroy();
  }

  private static Endpoint ready(String pod, String ip) {
    return new EndpointBuilder()
        .withAddresses(ip)
        .withNewConditions()
        .withReady(true)
        .withServing(true)
        .withTerminating(false)
        .endConditions()
        .withNewTargetRef()
        .withKind("Pod")
        .withName(pod)
        .withNamespace(NAMESPACE)
        .endTargetRef()
        .build();
  }

  private static EndpointSlice slice(Endpoint... endpoints) {
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withName(SERVICE + "-1")
        .withNamespace(NAMESPACE)
        .addToLabels(KubernetesSource.SERVICE_NAME_LABEL, SERVICE)
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

  /** Creates or replaces the Service's slice, as the EndpointSlice controller would. */
  private void put(EndpointSlice slice) {
    var resource = writer.discovery().v1().endpointSlices().inNamespace(NAMESPACE).resource(slice);
    if (resource.get() == null) {
      resource.create();
    } else {
      resource.update();
    }
  }

  /** Puts the slice; returns the milliseconds until the manager runs exactly {@code ids}. */
  private long followed(EndpointSlice slice, String... ids) throws InterruptedException {
    long begin = System.nanoTime();
    put(slice);
    Until.holds("the manager on " + List.of(ids), () -> ids().equals(List.of(ids)));
    return (System.nanoTime() - begin) / 1_000_000;
  }

  private List<String> ids() {
    return RunningApp.ids(app);
  }

  private JsonNode chashHealth() throws Exception {
    return RunningApp.chashHealth(app);
  }

  @Test
  void theCacheManagerFollowsTheEndpointSlices_andHealthShowsTheEpochItRuns() throws Exception {
    MembershipFollower follower = app.getBean(MembershipFollower.class);
    Until.holds("the slice's first state applied", () -> ids().equals(List.of("p0", "p1")));

    // a pod joins and leaves, ten times: how long from the write to the API server until the
    // application's manager runs the new nodes
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      millis.add(
          followed(
              slice(ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2"), ready("p2", "10.0.0.3")),
              "p0",
              "p1",
              "p2"));
      millis.add(followed(slice(ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")), "p0", "p1"));
    }
    Collections.sort(millis);
    System.out.printf(
        "kubernetes change followed by the Boot app over %d changes: min %d ms, median %d ms,"
            + " max %d ms%n",
        millis.size(), millis.get(0), millis.get(millis.size() / 2), millis.get(millis.size() - 1));

    put(slice(ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2"), ready("p3", "10.0.0.4")));
    // the manager moves a moment before the follower's status does: wait for both (the status
    // before was that of p0, p1: two nodes)
    Until.holds(
        "p3 added and its epoch in the status",
        () ->
            ids().equals(List.of("p0", "p1", "p3"))
                && follower.status().appliedRevision().startsWith("nodes 3,"));
    long epoch = follower.status().appliedEpoch();

    JsonNode chash = chashHealth();
    JsonNode membership = chash.path("details").path("membership");
    assertThat(chash.path("status").asText()).as(chash.toString()).isEqualTo("UP");
    assertThat(membership.path("source").asText())
        .isEqualTo("kubernetes " + NAMESPACE + "/" + SERVICE + " endpointslices");
    assertThat(membership.path("state").asText()).isEqualTo("CONNECTED");
    assertThat(membership.path("appliedEpoch").asLong()).isEqualTo(epoch);
    assertThat(membership.path("latestEpoch").asLong()).isEqualTo(epoch);
    assertThat(membership.path("appliedRevision").asText()).startsWith("nodes 3, sha256 ");
    assertThat(membership.path("behind").asBoolean(true)).isFalse();
  }

  @Test
  void noReadyEndpointOrAGoneApiServer_keepTheRing_andHealthIsDegradedWithWhy() throws Exception {
    MembershipFollower follower = app.getBean(MembershipFollower.class);
    Until.holds(
        "the slice's first state applied, and in the status",
        () ->
            ids().equals(List.of("p0", "p1"))
                && follower.status().appliedEpoch() != MembershipFollower.NONE);
    long applied = follower.status().appliedEpoch();

    put(slice());
    Until.holds("the empty slice seen", () -> follower.status().problem() != null);
    JsonNode behind = chashHealth();
    assertThat(behind.path("status").asText()).as(behind.toString()).isEqualTo("DEGRADED");
    assertThat(behind.path("description").asText())
        .contains("behind the membership source: epoch " + applied + " runs");
    JsonNode membership = behind.path("details").path("membership");
    assertThat(membership.path("behind").asBoolean()).isTrue();
    assertThat(membership.path("appliedEpoch").asLong()).isEqualTo(applied);
    assertThat(membership.path("problem").asText()).contains("no ready endpoints", "shop/cache");
    assertThat(ids()).containsExactly("p0", "p1");

    put(slice(ready("p0", "10.0.0.1"), ready("p1", "10.0.0.2")));
    Until.holds("the slice back", () -> !follower.status().behind());
    assertThat(chashHealth().path("status").asText()).isEqualTo("UP");

    server.destroy();
    Until.holds(
        "the gone API server seen", () -> follower.status().state().name().equals("UNREACHABLE"));
    JsonNode lost = chashHealth();
    assertThat(lost.path("status").asText()).as(lost.toString()).isEqualTo("DEGRADED");
    assertThat(lost.path("description").asText()).contains("membership source unreachable since");
    assertThat(lost.path("details").path("membership").path("state").asText())
        .isEqualTo("UNREACHABLE");
    assertThat(ids()).containsExactly("p0", "p1");
  }

  /**
   * A Boot web application with nothing of its own: the test chash.yaml, then the slices' nodes.
   */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
