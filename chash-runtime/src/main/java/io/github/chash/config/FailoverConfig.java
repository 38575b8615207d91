package io.github.chash.config;

import java.time.Duration;

/**
 * The {@code failover:} block.
 *
 * @param failureLimit consecutive failures that eject a node from the live ring
 * @param retryAfter how long an ejected node stays out before a probe may readmit it
 * @param timeout command timeout of a remote node: a slower answer is a miss
 * @param onRejoin what a readmitted node does with its old entries
 */
public record FailoverConfig(
    int failureLimit, Duration retryAfter, Duration timeout, OnRejoin onRejoin) {

  /** 3 failures, 30s, 100ms, flush. */
  public static FailoverConfig defaults() {
    return new FailoverConfig(3, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.FLUSH);
  }
}
