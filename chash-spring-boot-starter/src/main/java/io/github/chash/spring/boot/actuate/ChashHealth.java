package io.github.chash.spring.boot.actuate;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.FailoverConfig;
import io.github.chash.membership.MembershipStatus;
import io.github.chash.ring.Node;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The health of a {@link ShardedCacheManager}, the same on Boot 3.5 and 4: {@code UP} while every
 * node is in the live ring and no value was refused; {@code DEGRADED} while some are ejected,
 * naming each, why, and its counts, or once a cache refused values (a value that could not be
 * stored, or a stored one that could not be read: each a miss), counted per cache.
 *
 * <p>{@code DEGRADED} is not {@code DOWN} on purpose: the cache never breaks a business call, its
 * keys move to the next nodes, so a cache outage must not take the service out of its load
 * balancer. Spring Boot's status aggregation ignores codes outside {@code
 * management.endpoint.health.status.order}, so the application stays {@code UP} unless that order
 * lists {@code DEGRADED}.
 *
 * @param up whether every node is live
 * @param description one line, e.g. {@code 1 of 3 nodes ejected} (the {@code DEGRADED} status's)
 * @param details {@code nodes} (id to {@code live} or {@code ejected}); when some are ejected,
 *     {@code ejected} (id to its reason and counts); when values were refused, {@code refused}
 *     (cache name to the count, since the start) and {@code refusedWhy}; while the watched file
 *     does not run, {@code config} (its {@code file} and {@code problem}); with a membership
 *     source, {@code membership} ({@link MembershipHealth})
 */
record ChashHealth(boolean up, String description, Map<String, Object> details) {
  /** The status code while some node is ejected (not one of Boot's default order). */
  static final String DEGRADED = "DEGRADED";

  static final String REFUSED_WHY =
      "values not stored (not encodable, larger than maxValueSize) or stored values not read (not"
          + " decodable, a class outside the allow-list), each served as a miss; the log says why"
          + " at WARN, once per reason";

  /**
   * Reads the manager's state now.
   *
   * @param failover the failure policy the manager was built with, or null if unknown (the
   *     application built its own manager)
   * @param refused cache name to values refused since the start, the caches with refusals only
   * @param watch the watch of {@code chash.yaml} ({@code chash.watch}), or null
   * @param membership the status of the membership follower ({@code chash.membership.source}), or
   *     null
   */
  static ChashHealth of(
      ShardedCacheManager manager,
      FailoverConfig failover,
      Map<String, Long> refused,
      ConfigWatch watch,
      MembershipStatus membership) {
    Set<String> live =
        manager.liveRing().nodes().stream().map(Node::id).collect(Collectors.toSet());
    Map<String, CacheStats> stats = manager.nodeStats();
    Map<String, Object> nodes = new LinkedHashMap<>();
    Map<String, Object> ejected = new LinkedHashMap<>();
    for (Node node : manager.ring().nodes()) {
      String id = node.id();
      boolean isLive = live.contains(id);
      nodes.put(id, isLive ? "live" : "ejected");
      if (!isLive) {
        CacheStats s = stats.getOrDefault(id, CacheStats.empty());
        Map<String, Object> why = new LinkedHashMap<>();
        why.put("reason", reason(failover, promotesReplica(manager, id)));
        why.put("errors", s.errorCount());
        why.put("ejections", s.ejectionCount());
        ejected.put(id, why);
      }
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("nodes", nodes);
    if (!ejected.isEmpty()) {
      details.put("ejected", ejected);
    }
    long refusedTotal = refused.values().stream().mapToLong(Long::longValue).sum();
    if (refusedTotal > 0) {
      details.put("refused", refused);
      details.put("refusedWhy", REFUSED_WHY);
    }
    String configProblem = watch == null ? null : watch.problem();
    if (configProblem != null) {
      details.put("config", Map.of("file", watch.file().toString(), "problem", configProblem));
    }
    int total = nodes.size();
    String description =
        ejected.isEmpty()
            ? "all " + total + " nodes live"
            : ejected.size() + " of " + total + " nodes ejected";
    if (refusedTotal > 0) {
      description += "; " + refusedTotal + (refusedTotal == 1 ? " value" : " values") + " refused";
    }
    if (configProblem != null) {
      description += "; " + watch.file().getFileName() + " changed but does not run";
    }
    MembershipHealth following = membership == null ? null : MembershipHealth.of(membership);
    if (following != null) {
      details.put("membership", following.details());
      if (following.degraded()) {
        description += "; " + following.description();
      }
    }
    boolean degraded = following != null && following.degraded();
    return new ChashHealth(
        ejected.isEmpty() && refusedTotal == 0 && configProblem == null && !degraded,
        description,
        details);
  }

  /** Whether the node is a Sentinel shard; false for one removed since the ring was read. */
  private static boolean promotesReplica(ShardedCacheManager manager, String id) {
    try {
      return manager.node(id).promotesReplica();
    } catch (IllegalArgumentException removedMeanwhile) {
      return false;
    }
  }

  /** Why a node is out; a Sentinel shard's failures also lasted {@code promotionWait}. */
  private static String reason(FailoverConfig failover, boolean promotes) {
    if (failover == null) {
      return "failed failureLimit operations in a row"
          + (promotes ? " for promotionWait or longer" : "")
          + "; readmitted when its probe answers";
    }
    boolean waited = promotes && !failover.promotionWait().isZero();
    return "failed "
        + failover.failureLimit()
        + " operations in a row"
        + (waited
            ? " for "
                + failover.promotionWait()
                + " or longer (failover.failureLimit, failover.promotionWait)"
            : " (failover.failureLimit)")
        + "; probed again every "
        + failover.retryAfter()
        + " (failover.retryAfter) and readmitted when it answers";
  }
}
