package io.github.chash.cache;

import java.util.Set;

/**
 * Protocol bugs planted on purpose, one at a time, by the mutation gate ({@code MutationGateTest}):
 * each rule of the protocol reads here, at its one place, whether it is to be broken, and the gate
 * fails unless the simulations catch every planted bug. Empty outside that test; a check costs one
 * field load.
 */
final class Planted {
  /** Rule 7: a write of a moved key does not fence its previous owners first. */
  static final String NO_FENCE = "no fence";

  /** Rule 2: a write whose outcome is unknown leaves no unknown mark. */
  static final String NO_UNKNOWN_MARK = "no unknown mark";

  /** Rule 7: a load fills without a lease. */
  static final String NO_LEASE = "no lease";

  /** Rule 7: a sweep deletes a leftover's home copy after the leftover, not before. */
  static final String SWEEP_HOME_LAST = "sweep deletes the home copy last";

  /** Rule 7: a move copies and deletes without its condition. */
  static final String UNCONDITIONAL_MOVE = "move without its condition";

  /**
   * Rule 7: this ring's writes leave nothing on a key's previous owners, and reads take nothing
   * there for a vouch.
   */
  static final String NO_VOUCH = "no vouch";

  /**
   * A JVM started during a rollout ignores the ring its configuration replaces ({@code
   * migration.replaces}): it knows no previous owner.
   */
  static final String NO_REPLACED_RING = "a fresh JVM ignores the replaced ring";

  /**
   * A JVM started during a rollout that began while an earlier one ran takes only the newest ring
   * its configuration replaces, not the earlier one that JVMs may still run.
   */
  static final String NEWEST_REPLACED_ONLY = "a fresh JVM takes only the newest replaced ring";

  /**
   * Rule 7: readers rank a key's target as the newest node, even when the chain came back to a ring
   * that placed the key there (a change reverted mid-rollout).
   */
  static final String TARGET_ALWAYS_NEWEST = "the target is always the newest";

  /**
   * Rule 7: a read that finds the target's copy unvouched leaves it there, to be served once the
   * windows end.
   */
  static final String KEEP_UNVOUCHED = "an unvouched copy stays";

  /**
   * Rule 7: a vouch counts for any target, not only the one its writer's ring placed the key on, so
   * a JVM that skipped a ring (overlapping changes) serves its target's copy on the vouch of a JVM
   * on that ring, which writes elsewhere.
   */
  static final String VOUCH_ANY_TARGET = "a vouch counts for any target";

  /**
   * A running JVM given a configuration that replaces rings newer than its own jumps to the
   * configuration's ring without changing through them.
   */
  static final String SKIPPED_RINGS_SKIPPED = "a running JVM jumps over the rings it missed";

  /** Reads stop consulting a ring's previous owners when its window ends, before the sweep. */
  static final String READS_STOP_AT_WINDOW_END = "reads stop at the window's end";

  /** A near cache ignores the invalidations its node's channel reports. */
  static final String NEAR_IGNORES_INVALIDATION = "near cache ignores an invalidation";

  /** The bugs planted now. */
  static volatile Set<String> bugs = Set.of();

  private Planted() {}

  static boolean on(String bug) {
    Set<String> b = bugs;
    return !b.isEmpty() && b.contains(bug);
  }
}
