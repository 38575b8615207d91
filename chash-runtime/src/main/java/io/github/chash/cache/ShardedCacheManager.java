package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Ring;
import java.util.Map;
import java.util.Set;

/**
 * The named caches of one configuration, their nodes, and the live ring that routes keys to the
 * nodes that currently answer. Build one with {@link ShardedCaches}; share it application-wide.
 *
 * <p>Nodes that fail {@code failureLimit} times in a row leave the live ring for {@code
 * retryAfter}; a background probe ({@link CacheNode#ping()}) readmits them, first clearing their
 * entries when {@code onRejoin: flush}. After a readmission, the copies written during the outage
 * to nodes that no longer own their keys are deleted too, so a later outage cannot resurrect them.
 * The node set can change while the manager runs ({@link #reconfigure}, {@link #addNode}, {@link
 * #removeNode}, {@link #reweight}, {@link #drain}, {@link #readmit}) without a miss storm.
 * Thread-safe.
 */
public interface ShardedCacheManager extends AutoCloseable {

  /**
   * {@return the named cache; cheap, but callers should keep the handle}
   *
   * @param name the cache name, as in {@code chash.yaml}
   * @throws IllegalArgumentException if there is no such cache, naming it and the configured ones
   * @throws IllegalStateException if the manager was closed
   */
  ShardedCache cache(String name);

  /** {@return the configured cache names, in configuration order} */
  Set<String> cacheNames();

  /** {@return the ring of all configured nodes} */
  Ring ring();

  /** {@return the ring of the nodes currently serving (the configured ring minus ejected nodes)} */
  Ring liveRing();

  /**
   * {@return the node with the given id}
   *
   * @param id the node's id
   * @throws IllegalArgumentException if there is none
   */
  CacheNode node(String id);

  /**
   * {@return the configurations of the current nodes, in configuration order; a ready-made node
   * (given as a {@link CacheNode}) is not among them}
   */
  java.util.List<NodeConfig> nodeConfigs();

  /** {@return a snapshot of each node's counters, by node id in ring order} */
  Map<String, CacheStats> nodeStats();

  /** {@return a snapshot of each cache's counters, by cache name in configuration order} */
  Map<String, CacheStats> cacheStats();

  /**
   * Moves the running manager to another configuration's ring settings, nodes and weights (and
   * creates its new caches), atomically: callers use the old routing or the new one, never a mix.
   * New nodes are connected, and emptied of this library's keys ({@code onRejoin: flush}), before
   * they get traffic; nodes that stay keep their stats, health and entries; removed ones keep
   * answering for the migration window and are closed after the leftover sweep. For the window
   * ({@code migration.window}), a miss on a key's new owner reads its previous owner and copies a
   * hit over; afterwards the copies left on nodes that no longer own their keys are deleted. A
   * change within a window chains: every ring not yet swept is read (newest first) and has written
   * keys deleted. Existing caches keep their ttl until restart (logged); failover and Redis
   * settings apply to new nodes. Blocks while new nodes connect; cache calls never wait for it.
   *
   * @param next the configuration to move to
   * @throws IllegalArgumentException or IllegalStateException if the configuration cannot be
   *     applied (a node that cannot be created, a ring that cannot be built); nothing changes then
   * @throws IllegalStateException if the manager was closed
   */
  void reconfigure(ChashConfig next);

  /**
   * {@link #reconfigure}s to the current nodes plus this one, at the end of the list.
   *
   * @param node the node to add
   * @throws IllegalArgumentException if a node with its id exists, or is {@linkplain #drain
   *     drained} ({@link #readmit} brings that back)
   * @throws UnsupportedOperationException if the manager has ready-made nodes (no NodeConfig):
   *     reconfigure it with a whole configuration instead
   */
  void addNode(NodeConfig node);

  /**
   * {@link #reconfigure}s to the current nodes without this one; it is drained: its keys keep being
   * served from it, and copied to their new owners, for the migration window.
   *
   * @param id the node's id
   * @throws IllegalArgumentException if there is no such node, or it is the last one
   * @throws UnsupportedOperationException as {@link #addNode}
   */
  void removeNode(String id);

  /**
   * Drains a node for an operator: {@link #removeNode}s it, and keeps it out until {@link
   * #readmit}, whatever reloads come meanwhile. The rule, applied where {@link #reconfigure} takes
   * a reload's nodes (a watched {@code chash.yaml}, a membership source, a caller's own): a drained
   * node the new configuration names stays out of the ring, and a readmission brings it back with
   * that configuration (its weight, its server); a drained node the new configuration no longer
   * names is forgotten, and readmitting it is refused. A configuration whose every node is drained
   * is refused.
   *
   * @param id the node's id
   * @throws IllegalArgumentException if there is no such node, it is drained already, or it is the
   *     last one
   * @throws UnsupportedOperationException as {@link #addNode}
   */
  void drain(String id);

  /**
   * Adds a {@linkplain #drain drained} node back, at the end of the nodes, with its configuration
   * from the latest configuration that named it (or as it was drained, when none came since).
   *
   * @param id the node's id
   * @throws IllegalArgumentException if the node is not drained (never was, was readmitted, or a
   *     reload no longer named it)
   * @throws UnsupportedOperationException as {@link #addNode}
   */
  void readmit(String id);

  /** {@return the ids of the {@linkplain #drain drained} nodes not readmitted yet, in id order} */
  Set<String> drained();

  /**
   * {@link #reconfigure}s to the current nodes with this one's weight changed.
   *
   * @param id the node's id
   * @param weight the new weight, positive
   * @throws IllegalArgumentException if there is no such node or the weight is not positive
   * @throws UnsupportedOperationException as {@link #addNode}
   */
  void reweight(String id, int weight);

  /**
   * Stops the probes and closes every node; later calls do nothing. Afterwards {@link #cache} and
   * every operation of the caches it returned throw {@link IllegalStateException}. Never throws.
   */
  @Override
  void close();
}
