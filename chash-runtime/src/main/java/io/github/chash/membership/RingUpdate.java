package io.github.chash.membership;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Objects;

/**
 * One state of a membership source: the nodes (or a whole configuration) as of one epoch.
 *
 * @param epoch the source's revision, monotonic: a later state of the source has a larger epoch
 *     (etcd's mod revision, ZooKeeper's mzxid, a counter for sources without a global revision)
 * @param revision the source's own words for this state, for logs and health ({@code mzxid 0x1f},
 *     {@code revision 42}, {@code hash 3fa1c2d0})
 * @param nodes the nodes, in order; null when {@code config} is given
 * @param config a whole configuration (ring settings, caches and nodes) when the source holds one;
 *     null when the source holds the nodes only, which then replace the running configuration's
 */
public record RingUpdate(long epoch, String revision, List<NodeConfig> nodes, ChashConfig config) {

  /**
   * Checks that exactly one of {@code nodes} and {@code config} is given.
   *
   * @param epoch the source's revision, monotonic
   * @param revision the source's own words for this state
   * @param nodes the nodes, or null when {@code config} is given
   * @param config the whole configuration, or null when {@code nodes} are given
   * @throws IllegalArgumentException if both or neither are given
   */
  public RingUpdate {
    Objects.requireNonNull(revision, "revision");
    if ((nodes == null) == (config == null)) {
      throw new IllegalArgumentException(
          "a ring update carries nodes or a configuration, exactly one; epoch " + epoch);
    }
    nodes = nodes == null ? null : List.copyOf(nodes);
  }

  /**
   * {@return an update of the nodes only}
   *
   * @param epoch the source's revision, monotonic
   * @param revision the source's own words for this state
   * @param nodes the nodes, in order
   */
  public static RingUpdate ofNodes(long epoch, String revision, List<NodeConfig> nodes) {
    return new RingUpdate(epoch, revision, Objects.requireNonNull(nodes, "nodes"), null);
  }

  /**
   * {@return the update a {@code chash.yaml} document stored in a source makes: the nodes only when
   * {@code nodes:} is its only key, the whole configuration otherwise}
   *
   * @param epoch the source's revision, monotonic
   * @param revision the source's own words for this state
   * @param utf8 the document, UTF-8 encoded
   * @param where what messages name the document by, e.g. {@code /chash/nodes}
   * @throws io.github.chash.config.ConfigException if the document is not a valid {@code
   *     chash.yaml} (or not UTF-8, or larger than a file may be), each problem with
   *     where:line:column
   */
  public static RingUpdate parse(long epoch, String revision, byte[] utf8, String where) {
    ChashConfig config = ChashConfigs.load(new ByteArrayInputStream(utf8), where);
    boolean nodesOnly =
        List.of("ring", "caches", "failover", "migration", "redis", "memcached", "check").stream()
            .allMatch(key -> config.where(key).equals(config.source()));
    return nodesOnly
        ? ofNodes(epoch, revision, config.nodes())
        : new RingUpdate(epoch, revision, null, config);
  }

  /**
   * {@return the configuration this update moves a manager running {@code running} to}
   *
   * @param running the configuration the manager runs
   * @throws IllegalArgumentException or IllegalStateException if the nodes cannot make a
   *     configuration (none, or two with one id)
   */
  public ChashConfig applyTo(ChashConfig running) {
    if (config != null) {
      return config;
    }
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("no nodes at epoch " + epoch + " (" + revision + ")");
    }
    return running.withNodes(nodes);
  }
}
