package io.github.chash.config;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code migration:} block: how a running manager moves to a new node set without a miss storm;
 * its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param window for how long after a change a miss on a key's new owner reads the key's previous
 *     owner (and copies a hit over); zero disables it. Copies left on nodes that no longer own
 *     their keys are swept once the window ends.
 * @param replaces the rings this configuration replaces while its rollout runs, newest first, or
 *     none: a JVM started on this configuration within one window of a {@link Replaces#since}
 *     starts as if it had changed from that ring, and from each newer one in turn (see {@link
 *     Replaces}). More than one when the change was made during an earlier one's rollout, whose
 *     JVMs may still run the ring before.
 */
public record MigrationConfig(Duration window, List<Replaces> replaces) {

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
   * @param replaces the rings this configuration replaces while its rollout runs, newest first
   * @throws IllegalArgumentException if the window is negative, or the rings are not newest first
   */
  public MigrationConfig {
    Objects.requireNonNull(window, "migration.window");
    Rules.require("migration.window", Rules.notNegative(window));
    replaces = replaces == null ? List.of() : List.copyOf(replaces);
    for (int i = 1; i < replaces.size(); i++) {
      Rules.require(
          "migration.replaces",
          replaces.get(i).since().isAfter(replaces.get(i - 1).since())
              ? "must list the replaced rings newest first"
              : null);
    }
  }

  /**
   * {@return the replaced rings a JVM starting at {@code now} may meet JVMs on, oldest first: those
   * whose rollout began less than one window ago}
   *
   * @param now the starting JVM's wall clock
   */
  public List<Replaces> inRollout(Instant now) {
    List<Replaces> oldestFirst = new ArrayList<>(replaces.size());
    for (int i = replaces.size() - 1; i >= 0; i--) {
      if (!window.isZero() && replaces.get(i).inRollout(now, window)) {
        oldestFirst.add(replaces.get(i));
      }
    }
    return oldestFirst;
  }

  /**
   * A migration block that replaces no ring.
   *
   * @param window for how long after a change a miss on a key's new owner reads its previous owner
   * @throws IllegalArgumentException if the window is negative
   */
  public MigrationConfig(Duration window) {
    this(window, List.of());
  }

  /** {@return a 5-minute window} */
  public static MigrationConfig defaults() {
    return new MigrationConfig(DEFAULT_WINDOW);
  }
}
