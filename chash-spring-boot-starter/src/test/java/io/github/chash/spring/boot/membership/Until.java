package io.github.chash.spring.boot.membership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A bounded wait for a condition another thread makes true: polls, and fails at the deadline. */
final class Until {
  /** How long a change may take at most before a test fails; not the measured bound. */
  static final Duration PATIENCE = Duration.ofSeconds(30);

  private Until() {}

  /**
   * Waits until {@code condition} holds.
   *
   * @return how long it took, in milliseconds
   */
  static long holds(String what, BooleanSupplier condition) throws InterruptedException {
    long begin = System.nanoTime();
    long deadline = begin + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() < deadline).as("within %s: %s", PATIENCE, what).isTrue();
      Thread.sleep(5); // a poll period, not a wait for the condition itself
    }
    return (System.nanoTime() - begin) / 1_000_000;
  }
}
