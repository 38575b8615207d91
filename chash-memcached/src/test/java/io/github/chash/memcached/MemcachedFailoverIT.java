package io.github.chash.memcached;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.RemoteFailoverScenarios;
import io.github.chash.cache.TestFleet;
import io.github.chash.cache.ValueType;
import io.github.chash.cache.VerbatimKeys;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.MemcachedConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RemoteFailoverScenarios} on three real memcached servers. A memcached flush replaces the
 * generation counter instead of deleting keys, so "the leftover is gone" means a node reading the
 * server directly no longer serves it; the leftover is planted by such a node, under the counters
 * the server holds then.
 */
class MemcachedFailoverIT extends RemoteFailoverScenarios {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Override
  protected TestFleet fleet() {
    return fleet;
  }

  private final Map<String, CacheNode> inspectors = new HashMap<>();

  @AfterEach
  void closeInspectors() {
    inspectors.values().forEach(CacheNode::close);
    inspectors.clear();
  }

  /** A node of its own on the server, as another JVM of the service would have. */
  private CacheNode inspector(String nodeId) {
    return inspectors.computeIfAbsent(
        nodeId,
        id -> {
          ChashConfig config =
              MemcachedCacheNodeContractIT.config(
                  fleet.server(id).uri(), MemcachedConfig.defaults(), Duration.ofSeconds(1));
          CacheNode node = new MemcachedCacheNodeFactory().create(config.nodes().get(0), config);
          node.awaitReady();
          return node;
        });
  }

  @Override
  protected boolean stored(String nodeId, String routingKey) {
    // a value: a tombstone an evict leaves (see Marker) holds none
    byte[] bytes = fleet.server(nodeId).getBytes(serverKey(routingKey));
    if (bytes == null) {
      return false;
    }
    Envelope envelope = VerbatimKeys.isVerbatim(routingKey) ? null : Envelope.decode(bytes);
    return envelope == null
        || io.github.chash.internal.codec.MarkerBytes.decode(envelope.payload()) == null;
  }

  /** A verbatim cache's key as given; another's under the default keyPrefix. */
  private static String serverKey(String routingKey) {
    return VerbatimKeys.isVerbatim(routingKey)
        ? VerbatimKeys.key(routingKey)
        : new MemcachedKeys("chash:").dataKey(routingKey);
  }

  @Override
  protected void plantLeftover(String nodeId, String routingKey, String value) {
    if (VerbatimKeys.isVerbatim(routingKey)) { // flags 0: a string, as spymemcached writes it
      fleet.server(nodeId).setBytes(serverKey(routingKey), value.getBytes(StandardCharsets.UTF_8));
      return;
    }
    awaitAnswer(nodeId);
    inspector(nodeId).put(routingKey, value, null);
  }

  @Override
  protected boolean readable(String nodeId, String routingKey) {
    if (VerbatimKeys.isVerbatim(routingKey)) { // no generations: what is stored is read
      return stored(nodeId, routingKey);
    }
    awaitAnswer(nodeId);
    return inspector(nodeId).get(routingKey, ValueType.OBJECT) != null;
  }

  @Override
  protected void plantForeignKey(String nodeId) {
    fleet.server(nodeId).setBytes("other-app:key", "kept".getBytes(StandardCharsets.UTF_8));
  }

  @Override
  protected boolean foreignKeyKept(String nodeId) {
    return fleet.server(nodeId).exists("other-app:key");
  }

  /** Waits (at most 5 s) until the inspector's connection to a restarted server is back. */
  private void awaitAnswer(String nodeId) {
    Awaitility.await(nodeId + " answers the inspector again")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofSeconds(5))
        .ignoreExceptionsInstanceOf(RuntimeException.class) // not yet
        .until(
            () -> {
              inspector(nodeId).ping();
              return true;
            });
  }
}
