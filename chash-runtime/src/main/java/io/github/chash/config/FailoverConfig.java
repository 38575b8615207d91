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
 */
public record FailoverConfig(
    int failureLimit,
    Duration retryAfter,
    Duration timeout,
    OnRejoin onRejoin,
    Duration fallbackTtl) {

  /** The rule of {@code failureLimit}. */
  static final Rules.Whole FAILURE_LIMIT =
      new Rules.Whole(1, Integer.MAX_VALUE, "a positive integer");

  /** The default {@code fallbackTtl}: one minute, as mcrouter's {@code failover_exptime}. */
  public static final Duration DEFAULT_FALLBACK_TTL = Duration.ofMinutes(1);

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
   * @throws IllegalArgumentException if {@code failureLimit} is not positive or a duration is not
   *     positive
   * @throws NullPointerException if {@code onRejoin} is null
   */
  public FailoverConfig {
    Rules.require("failover.failureLimit", FAILURE_LIMIT.problem(failureLimit));
    Rules.require("failover.retryAfter", Rules.positive(retryAfter));
    Rules.require("failover.timeout", Rules.positive(timeout));
    Objects.requireNonNull(onRejoin, "failover.onRejoin");
    Rules.require("failover.fallbackTtl", Rules.positive(fallbackTtl));
  }

  /**
   * A policy with the default {@code fallbackTtl}.
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

  /** {@return the defaults: 3 failures, 30s, 100ms, flush, 1m} */
  public static FailoverConfig defaults() {
    return new FailoverConfig(3, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.FLUSH);
  }
}
