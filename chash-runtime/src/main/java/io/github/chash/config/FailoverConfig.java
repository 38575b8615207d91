package io.github.chash.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code failover:} block; its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param failureLimit consecutive failures (or failed writes) that eject a node from the live ring;
 *     a positive integer
 * @param retryAfter how long an ejected node stays out before a probe may readmit it; positive
 * @param timeout command timeout of a remote node: a slower answer is a miss; positive
 * @param onRejoin what a readmitted node does with its old entries
 * @param fallbackTtl the longest a copy written to a stand-in while a key's home is out may live
 *     (capped by the cache's own ttl): another JVM that never ejected the home cannot know of it;
 *     positive
 * @param promotionWait how long the failures of a node whose servers fail over among themselves (a
 *     Sentinel-managed shard) must have lasted, besides {@code failureLimit} of them in a row,
 *     before it is ejected: its sentinels promote a replica meanwhile and its keys stay where they
 *     are; zero or more (zero: ejected by count alone, as every other node is)
 */
public record FailoverConfig(
    int failureLimit,
    Duration retryAfter,
    Duration timeout,
    OnRejoin onRejoin,
    Duration fallbackTtl,
    Duration promotionWait) {

  /** The rule of {@code failureLimit}. */
  static final Rules.Whole FAILURE_LIMIT =
      new Rules.Whole(1, Integer.MAX_VALUE, "a positive integer");

  /** The default {@code fallbackTtl}: one minute, as mcrouter's {@code failover_exptime}. */
  public static final Duration DEFAULT_FALLBACK_TTL = Duration.ofMinutes(1);

  /**
   * The default {@code promotionWait}: 10 seconds, room for a Sentinel failover whose {@code
   * down-after-milliseconds} is a few seconds, plus its vote and promotion (about 1.2 s after a
   * 1-second {@code down-after-milliseconds} in {@code RedisSentinelIT}); past it, a shard is
   * likelier down than promoting.
   */
  public static final Duration DEFAULT_PROMOTION_WAIT = Duration.ofSeconds(10);

  /**
   * Checks the values.
   *
   * @param failureLimit consecutive failures (or failed writes) that eject a node from the live
   *     ring; a positive integer
   * @param retryAfter how long an ejected node stays out before a probe may readmit it; positive
   * @param timeout command timeout of a remote node: a slower answer is a miss; positive
   * @param onRejoin what a readmitted node does with its old entries
   * @param fallbackTtl the longest a copy written to a stand-in while a key's home is out may live
   *     (capped by the cache's own ttl): another JVM that never ejected the home cannot know of it;
   *     positive
   * @param promotionWait how long a Sentinel-managed shard's failures must have lasted, besides
   *     {@code failureLimit} of them in a row, before it is ejected; zero or more
   * @throws IllegalArgumentException if {@code failureLimit} is not positive, a duration is not
   *     positive, or {@code promotionWait} is negative
   * @throws NullPointerException if {@code onRejoin} or {@code promotionWait} is null
   */
  public FailoverConfig {
    Rules.require("failover.failureLimit", FAILURE_LIMIT.problem(failureLimit));
    Rules.require("failover.retryAfter", Rules.positive(retryAfter));
    Rules.require("failover.timeout", Rules.positive(timeout));
    Objects.requireNonNull(onRejoin, "failover.onRejoin");
    Rules.require("failover.fallbackTtl", Rules.positive(fallbackTtl));
    Objects.requireNonNull(promotionWait, "failover.promotionWait");
    Rules.require("failover.promotionWait", Rules.notNegative(promotionWait));
  }

  /**
   * A policy with the default {@code promotionWait}.
   *
   * @param failureLimit consecutive failures (or failed writes) that eject a node from the live
   *     ring; a positive integer
   * @param retryAfter how long an ejected node stays out before a probe may readmit it; positive
   * @param timeout command timeout of a remote node: a slower answer is a miss; positive
   * @param onRejoin what a readmitted node does with its old entries
   * @param fallbackTtl the longest a copy written to a stand-in while a key's home is out may live
   *     (capped by the cache's own ttl); positive
   */
  public FailoverConfig(
      int failureLimit,
      Duration retryAfter,
      Duration timeout,
      OnRejoin onRejoin,
      Duration fallbackTtl) {
    this(failureLimit, retryAfter, timeout, onRejoin, fallbackTtl, DEFAULT_PROMOTION_WAIT);
  }

  /**
   * A policy with the default {@code fallbackTtl} and {@code promotionWait}.
   *
   * @param failureLimit consecutive failures (or failed writes) that eject a node from the live
   *     ring; a positive integer
   * @param retryAfter how long an ejected node stays out before a probe may readmit it; positive
   * @param timeout command timeout of a remote node: a slower answer is a miss; positive
   * @param onRejoin what a readmitted node does with its old entries
   */
  public FailoverConfig(
      int failureLimit, Duration retryAfter, Duration timeout, OnRejoin onRejoin) {
    this(failureLimit, retryAfter, timeout, onRejoin, DEFAULT_FALLBACK_TTL);
  }

  /** {@return the defaults: 3 failures, 30s, 100ms, keep, 1m, 10s} */
  public static FailoverConfig defaults() {
    return new FailoverConfig(3, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.KEEP);
  }

  /**
   * {@return this policy with another {@code promotionWait}}
   *
   * @param promotionWait how long a Sentinel-managed shard's failures must have lasted, besides
   *     {@code failureLimit} of them in a row, before it is ejected; zero or more
   */
  public FailoverConfig withPromotionWait(Duration promotionWait) {
    return new FailoverConfig(
        failureLimit, retryAfter, timeout, onRejoin, fallbackTtl, promotionWait);
  }

  /**
   * The rule that {@code promotionWait} is set only where it applies: null when some node is a
   * Sentinel-managed shard, else what is wrong.
   */
  static String promotionWaitProblem(boolean anySentinelShard) {
    return anySentinelShard
        ? null
        : "applies only to Sentinel-managed shards (type redis, uri redis-sentinel://...#master),"
            + " and no node is one; remove it: every other node is ejected after failureLimit"
            + " failures alone";
  }
}
