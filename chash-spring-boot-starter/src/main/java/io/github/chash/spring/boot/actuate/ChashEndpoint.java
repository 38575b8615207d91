package io.github.chash.spring.boot.actuate;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.spring.cache.ChashCacheManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.lang.Nullable;

/**
 * The {@code chash} Actuator endpoint ({@code /actuator/chash} once exposed with {@code
 * management.endpoints.web.exposure.include}): the ring's settings, each node's weight, exact share
 * of the hash space (from the ring's ownership, not sampled), share in the live ring and state, and
 * each cache's counters.
 *
 * <p>Its write operation (a POST of {@code {"node": "cache-2", "action": "drain"}}, secured and
 * exposed like Actuator's other writes) drains a node: the manager removes it, serving its keys
 * from it and copying them to their new owners for the migration window, and keeps it out across
 * reloads ({@link ShardedCacheManager#drain}); {@code "readmit"} adds a drained node back.
 * Thread-safe.
 */
@Endpoint(id = "chash")
public class ChashEndpoint {
  private final ShardedCacheManager manager;

  /**
   * Creates the endpoint of a manager.
   *
   * @param manager the sharded cache manager the endpoint shows and changes
   */
  public ChashEndpoint(ShardedCacheManager manager) {
    this(manager, null, () -> null);
  }

  /**
   * Creates the endpoint of a manager, Spring's cache manager over it, and the watch of its {@code
   * chash.yaml}, whose problem the endpoint shows as {@code configProblem}.
   *
   * @param manager the sharded cache manager the endpoint shows and changes
   * @param springCaches Spring's cache manager over it, or null
   * @param watch gives the watch of {@code chash.yaml}, or null when the file is not watched
   */
  public ChashEndpoint(
      ShardedCacheManager manager, ChashCacheManager springCaches, Supplier<ConfigWatch> watch) {
    this.manager = manager;
    this.refusals = new Refusals(manager, springCaches);
    this.watch = watch;
  }

  private final Refusals refusals;
  private final Supplier<ConfigWatch> watch;

  /**
   * Drains a node ({@code action = "drain"}, {@link ShardedCacheManager#drain}) or adds a drained
   * one back ({@code "readmit"}, {@link ShardedCacheManager#readmit}), and returns the ring as it
   * is then. The manager keeps the drains, so a reload of {@code chash.yaml} keeps a drained node
   * out until it is readmitted.
   *
   * @param node the node's id; missing (null) is refused, naming it
   * @param action {@code drain} or {@code readmit}; missing (null) is refused, naming it
   * @return the ring after the change
   * @throws IllegalArgumentException naming the problem: a missing node or action, an unknown node
   *     or action, a node drained already or not drained, the last node
   */
  @WriteOperation
  public RingState change(@Nullable String node, @Nullable String action) {
    if (node == null || action == null) {
      throw new IllegalArgumentException(
          "missing "
              + (node == null && action == null
                  ? "\"node\" and \"action\""
                  : node == null ? "\"node\"" : "\"action\"")
              + ": the body must be {\"node\": \"<id>\", \"action\": \"drain\" or \"readmit\"}");
    }
    switch (action) {
      case "drain" -> manager.drain(node);
      case "readmit" -> manager.readmit(node);
      default ->
          throw new IllegalArgumentException(
              "action must be drain or readmit; was \"" + action + "\"");
    }
    return ring();
  }

  /** {@return the ring, its nodes and the caches, read now} */
  @ReadOperation
  public RingState ring() {
    Ring configured = manager.ring();
    Ring live = manager.liveRing();
    Map<String, Double> shares = configured.ownership();
    Map<String, Double> liveShares = live.size() == 0 ? Map.of() : live.ownership();
    Map<String, CacheStats> nodeStats = manager.nodeStats();
    List<NodeState> nodes = new ArrayList<>();
    for (Node node : configured.nodes()) {
      Double liveShare = liveShares.get(node.id());
      nodes.add(
          new NodeState(
              node.id(),
              node.weight(),
              shares.get(node.id()),
              liveShare == null ? 0.0 : liveShare,
              liveShare == null ? "ejected" : "live",
              Counts.of(nodeStats.getOrDefault(node.id(), CacheStats.empty()))));
    }
    List<CacheState> caches = new ArrayList<>();
    for (String name : manager.cacheNames()) {
      InterceptedCache cache = InterceptedCache.of(manager.cache(name));
      caches.add(
          new CacheState(
              name,
              cache.ttl() == null ? null : cache.ttl().toString(),
              Counts.of(cache.stats(), refusals.of(name))));
    }
    return new RingState(
        configured.settings().algorithm().configName(),
        configured.settings().hash().name(),
        configured.settings().pointsPerWeight(),
        nodes,
        List.copyOf(manager.drained()),
        caches,
        configProblem());
  }

  private String configProblem() {
    ConfigWatch w = watch.get();
    String problem = w == null ? null : w.problem();
    return problem == null ? null : w.file() + " " + problem;
  }

  /**
   * The endpoint's answer.
   *
   * @param algorithm the placement algorithm, as in {@code chash.yaml}
   * @param hash the hash function
   * @param pointsPerWeight virtual points per unit of weight ({@code ring}, {@code ketama})
   * @param nodes the configured nodes, in ring order
   * @param drained the ids of the nodes drained (through this endpoint or the manager's {@link
   *     ShardedCacheManager#drain}) and not readmitted, in id order, as the manager keeps them:
   *     they are out of the ring across reloads, and {@code readmit} brings each back
   * @param caches the caches, in configuration order
   * @param configProblem while a watched {@code chash.yaml} ({@code chash.watch}) changed to a
   *     content that does not run: the file and why, each problem with file:line:column (the ring
   *     shown is the one still running); null otherwise
   */
  public record RingState(
      String algorithm,
      String hash,
      int pointsPerWeight,
      List<NodeState> nodes,
      List<String> drained,
      List<CacheState> caches,
      String configProblem) {}

  /**
   * One node.
   *
   * @param id its id
   * @param weight its weight
   * @param share the exact share of the hash space it owns in the configured ring
   * @param liveShare the share it owns in the live ring now (0 while ejected)
   * @param state {@code live} or {@code ejected}
   * @param counts its counters
   */
  public record NodeState(
      String id, int weight, double share, double liveShare, String state, Counts counts) {}

  /**
   * One cache.
   *
   * @param name its name
   * @param ttl its time to live (ISO-8601), or null for none
   * @param counts its counters
   */
  public record CacheState(String name, String ttl, Counts counts) {}

  /**
   * The counters of a node or a cache ({@link CacheStats}).
   *
   * @param hits lookups that found a value
   * @param misses lookups that found none
   * @param loads loader runs that returned
   * @param loadFailures loader runs that threw
   * @param errors node operations that failed or timed out
   * @param ejections times a node was ejected (0 for a cache)
   * @param refused values not stored, or stored values not read, each a miss: refused by a node
   *     (not encodable, too large, not decodable or allowed) or, for a cache Spring's annotations
   *     store as JSON, JSON that could not be written or read; the log says why
   */
  public record Counts(
      long hits,
      long misses,
      long loads,
      long loadFailures,
      long errors,
      long ejections,
      long refused) {
    static Counts of(CacheStats s) {
      return of(s, s.refusedCount());
    }

    static Counts of(CacheStats s, long refused) {
      return new Counts(
          s.hitCount(),
          s.missCount(),
          s.loadCount(),
          s.loadFailureCount(),
          s.errorCount(),
          s.ejectionCount(),
          refused);
    }
  }
}
