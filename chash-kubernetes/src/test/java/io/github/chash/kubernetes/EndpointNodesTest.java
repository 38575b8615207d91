package io.github.chash.kubernetes;

import static io.github.chash.kubernetes.KubernetesSourceTest.endpoint;
import static io.github.chash.kubernetes.KubernetesSourceTest.ready;
import static io.github.chash.kubernetes.KubernetesSourceTest.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the endpoints of a Service's slices become: the rules, without a server. */
class EndpointNodesTest {
  private static final NodeTemplate REDIS = NodeTemplate.of("redis", "redis://{address}:{port}");

  @Test
  void readyEndpointsBecomeNodesSortedByPodName() {
    List<NodeConfig> nodes =
        KubernetesSource.nodes(
            List.of(
                slice("cache-2", "cache", ready("p1", "10.0.0.2")),
                slice("cache-1", "cache", ready("p2", "10.0.0.3"), ready("p0", "10.0.0.1"))),
            REDIS);
    assertThat(nodes)
        .containsExactly(
            NodeConfig.redis("p0", "redis://10.0.0.1:6379"),
            NodeConfig.redis("p1", "redis://10.0.0.2:6379"),
            NodeConfig.redis("p2", "redis://10.0.0.3:6379"));
  }

  @Test
  void notReadyAndTerminatingEndpointsAreLeftOut() {
    List<NodeConfig> nodes =
        KubernetesSource.nodes(
            List.of(
                slice(
                    "cache-1",
                    "cache",
                    ready("p0", "10.0.0.1"),
                    endpoint("p1", "10.0.0.2", false, false),
                    endpoint("p2", "10.0.0.3", false, true),
                    endpoint("p3", "10.0.0.4", true, true))),
            REDIS);
    assertThat(nodes).extracting(NodeConfig::id).containsExactly("p0");
  }

  @Test
  void anEndpointWithoutConditionsCountsAsReady() {
    EndpointSlice slice =
        slice("cache-1", "cache", new EndpointBuilder().withAddresses("10.0.0.9").build());
    assertThat(KubernetesSource.nodes(List.of(slice), REDIS))
        .containsExactly(NodeConfig.redis("10.0.0.9", "redis://10.0.0.9:6379"));
  }

  @Test
  void theIdIsThePodNameElseTheHostnameElseTheAddress() {
    EndpointSlice slice =
        slice(
            "cache-1",
            "cache",
            new EndpointBuilder().withAddresses("10.0.0.1").withHostname("redis-0").build(),
            new EndpointBuilder().withAddresses("10.0.0.2").build(),
            ready("pod-x", "10.0.0.3"));
    assertThat(KubernetesSource.nodes(List.of(slice), REDIS))
        .extracting(NodeConfig::id)
        .containsExactly("10.0.0.2", "pod-x", "redis-0");
  }

  @Test
  void anEndpointInTwoSlicesIsOneNode() {
    List<NodeConfig> nodes =
        KubernetesSource.nodes(
            List.of(
                slice("cache-1", "cache", ready("p0", "10.0.0.1")),
                slice("cache-2", "cache", ready("p0", "10.0.0.1"))),
            REDIS);
    assertThat(nodes).extracting(NodeConfig::id).containsExactly("p0");
  }

  @Test
  void thePortIsTheNamedOneAndAnIpv6AddressIsBracketed() {
    EndpointSlice slice =
        new EndpointSliceBuilder()
            .withNewMetadata()
            .withName("cache-1")
            .endMetadata()
            .withAddressType("IPv6")
            .addNewPort()
            .withName("metrics")
            .withPort(9121)
            .endPort()
            .addNewPort()
            .withName("redis")
            .withPort(6380)
            .endPort()
            .withEndpoints(ready("p0", "fd00::1"))
            .build();
    assertThat(KubernetesSource.nodes(List.of(slice), REDIS.port("redis")))
        .containsExactly(NodeConfig.redis("p0", "redis://[fd00::1]:6380"));
    assertThat(KubernetesSource.nodes(List.of(slice), REDIS))
        .containsExactly(NodeConfig.redis("p0", "redis://[fd00::1]:9121"));
    // a slice without the port names no reachable node
    assertThat(KubernetesSource.nodes(List.of(slice), REDIS.port("sentinel"))).isEmpty();
  }

  @Test
  void theTemplateNamesOnlyKnownPlaceholders() {
    assertThatThrownBy(() -> NodeTemplate.of("redis", "redis://{ip}:{port}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{ip}");
    assertThatThrownBy(() -> new NodeTemplate(NodeType.LOCAL, "redis://x", null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(
            NodeTemplate.of("memcached", "memcached://{hostname}.cache:{port}")
                .node("p0", "10.0.0.1", 11211, "mc-0"))
        .isEqualTo(NodeConfig.memcached("p0", "memcached://mc-0.cache:11211"));
  }

  @Test
  void theRevisionIsTheSameForTheSameNodesAndDiffersOtherwise() {
    List<NodeConfig> ab = List.of(NodeConfig.local("a"), NodeConfig.local("b"));
    assertThat(KubernetesSource.revision(ab))
        .isEqualTo(KubernetesSource.revision(List.of(NodeConfig.local("a"), NodeConfig.local("b"))))
        .startsWith("nodes 2, sha256 ")
        .isNotEqualTo(KubernetesSource.revision(List.of(NodeConfig.local("a"))))
        .isNotEqualTo(
            KubernetesSource.revision(
                List.of(NodeConfig.redis("a", "redis://h:1"), NodeConfig.local("b"))));
  }
}
