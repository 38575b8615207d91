package io.github.chash.config;

import java.time.Duration;

/**
 * The {@code failover:} block.
 *
 * @param failureLimit consecutive failures (or failed writes) that eject a node from the live ring
 * @param retryAfter how long an ejected node stays out before a probe may readmit it
 * @param timeout command timeout of a remote node: a slower answer is a miss
 * @param onRejoin what a readmitted node does with its old entries
 * @param fallbackTtl the longest a copy written to a stand-in while a key's home is out may live
 *     (capped by the cache's own ttl): another JVM that never ejected the home cannot know of it
 */
public record FailoverConfig(
    int failureLimit,
    Duration retryAfter,
    Duration timeout,
    OnRejoin onRejoin,
    Duration fallbackTtl) {

  /** The default {@code fallbackTtl}: one minute, as mcrouter's {@code failover_exptime}. */
  public static final Duration DEFAULT_FALLBACK_TTL = Duration.ofMinutes(1);

  /** A policy with the default {@code fallbackTtl}. */
  public FailoverConfig(
      int failureLimit, Duration retryAfter, Duration timeout, OnRejoin onRejoin) {
    this(failureLimit, retryAfter, timeout, onRejoin, DEFAULT_FALLBACK_TTL);
  }

  /** 3 failures, 30s, 100ms, flush, 1m. */
  public static FailoverConfig defaults() {
    return new FailoverConfig(3, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.FLUSH);
  }
}
