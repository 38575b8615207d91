package io.github.chash.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code migration:} block: how a running manager moves to a new node set without a miss storm;
 * its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param window for how long after a change a miss on a key's new owner reads the key's previous
 *     owner (and copies a hit over); zero disables it. Copies left on nodes that no longer own
 *     their keys are swept once the window ends.
 */
public record MigrationConfig(Duration window) {

  /** The default window: 5 minutes, long enough for a cache's hot keys to be read once. */
  public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(5);

  /**
   * Checks the value.
   *
   * @param window for how long after a change a miss on a key's new owner reads the key's previous
   *     owner (and copies a hit over); zero disables it. Copies left on nodes that no longer own
   *     their keys are swept once the window ends.
   * @throws IllegalArgumentException if the window is negative
   */
  public MigrationConfig {
    Objects.requireNonNull(window, "migration.window");
    Rules.require("migration.window", Rules.notNegative(window));
  }

  /** {@return a 5-minute window} */
  public static MigrationConfig defaults() {
    return new MigrationConfig(DEFAULT_WINDOW);
  }
}
