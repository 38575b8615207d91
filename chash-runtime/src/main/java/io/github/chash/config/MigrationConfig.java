package io.github.chash.config;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The {@code migration:} block: how a running manager moves to a new node set without a miss storm;
 * its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param window for how long after a change a miss on a key's new owner reads the key's previous
 *     owner (and copies a hit over); zero disables it. Copies left on nodes that no longer own
 *     their keys are swept once the window ends.
 * @param replaces the ring this configuration replaces while its rollout runs, or null: a JVM
 *     started on this configuration within one window of {@link Replaces#since} starts as if it had
 *     changed from that ring (see {@link Replaces})
 */
public record MigrationConfig(Duration window, Replaces replaces) {

  /** The default window: 5 minutes, long enough for a cache's hot keys to be read once. */
  public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(5);

  /**
   * The ring a configuration replaces, for the JVMs that start on it while the rollout runs (a
   * rolling restart replaces each pod with a fresh JVM on the new ring, while the pods not yet
   * replaced still write where the old ring puts keys). Such a JVM knows no previous owner by
   * itself: this tells it, so that it reads and fences them as a JVM that changed does. A JVM that
   * is already running when it receives the configuration ignores it: it knows the ring it ran.
   *
   * @param since when the rollout began (the first JVM on the new ring); past one window after it,
   *     a JVM that starts takes no previous ring (the rollout is over)
   * @param nodes the replaced ring's nodes, in order
   */
  public record Replaces(Instant since, List<NodeConfig> nodes) {
    /**
     * Checks the values.
     *
     * @param since when the rollout began
     * @param nodes the replaced ring's nodes, at least one
     * @throws IllegalArgumentException if no node is given
     */
    public Replaces {
      Objects.requireNonNull(since, "migration.replaces.since");
      nodes = List.copyOf(Objects.requireNonNull(nodes, "migration.replaces.nodes"));
      Rules.require(
          "migration.replaces.nodes", nodes.isEmpty() ? "must list at least one node" : null);
    }

    /**
     * {@return whether a JVM starting at {@code now} may meet JVMs still on the replaced ring: the
     * rollout began less than one {@code window} ago (or, by a clock ahead of this one, after now)}
     *
     * @param now the starting JVM's wall clock
     * @param window the migration window
     */
    public boolean inRollout(Instant now, Duration window) {
      return now.isBefore(since.plus(window));
    }
  }

  /**
   * Checks the values.
   *
   * @param window for how long after a change a miss on a key's new owner reads the key's previous
   *     owner (and copies a hit over); zero disables it. Copies left on nodes that no longer own
   *     their keys are swept once the window ends.
   * @param replaces the ring this configuration replaces while its rollout runs, or null
   * @throws IllegalArgumentException if the window is negative
   */
  public MigrationConfig {
    Objects.requireNonNull(window, "migration.window");
    Rules.require("migration.window", Rules.notNegative(window));
  }

  /**
   * A migration block that replaces no ring.
   *
   * @param window for how long after a change a miss on a key's new owner reads its previous owner
   * @throws IllegalArgumentException if the window is negative
   */
  public MigrationConfig(Duration window) {
    this(window, null);
  }

  /** {@return a 5-minute window} */
  public static MigrationConfig defaults() {
    return new MigrationConfig(DEFAULT_WINDOW);
  }
}
