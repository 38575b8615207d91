package io.github.chash.membership;

import java.time.Instant;

/**
 * What a {@link MembershipFollower} reports to health checks and metrics; a snapshot.
 *
 * @param source what the source watches
 * @param state whether the source is reachable
 * @param since when the source entered {@code state}
 * @param appliedEpoch the epoch the manager runs; {@link MembershipFollower#NONE} before the first
 * @param appliedRevision the source's words for the applied state, or null before the first
 * @param appliedAt when the applied epoch was applied, or null before the first
 * @param latestEpoch the newest epoch the source delivered or announced, applied or not
 * @param problem why the latest state does not run (bad data, a reconfigure that failed), or null
 * @param ignored how many updates were ignored for an epoch not newer than the applied one
 */
public record MembershipStatus(
    String source,
    SourceState state,
    Instant since,
    long appliedEpoch,
    String appliedRevision,
    Instant appliedAt,
    long latestEpoch,
    String problem,
    long ignored) {

  /** Whether a source can be reached. */
  public enum SourceState {
    /** Started, no answer yet. */
    STARTING,
    /** Reachable: its changes arrive. */
    CONNECTED,
    /** Not reachable: the last good ring runs. */
    UNREACHABLE
  }

  /**
   * {@return whether this JVM is behind: the source has a newer epoch than the one the manager runs
   * (bad data, or a reconfigure that failed), or no epoch was applied yet}
   */
  public boolean behind() {
    return appliedEpoch == MembershipFollower.NONE || latestEpoch > appliedEpoch;
  }
}
