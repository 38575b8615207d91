package io.github.chash.membership;

/**
 * What a {@link MembershipSource} tells: its states, and whether it can be reached. Calls come from
 * the source's own threads, one at a time.
 */
public interface MembershipListener {

  /**
   * The source's state as of {@link RingUpdate#epoch()}; a source may repeat a state (after a
   * reconnection), and may deliver an older one than it delivered before (a lagging replica).
   *
   * @param update the state
   */
  void update(RingUpdate update);

  /**
   * The source holds a state at {@code epoch} that is not a valid ring; the running one stays.
   *
   * @param epoch the source's revision of the bad state
   * @param problem what is wrong, naming the key and the bad value
   */
  void invalid(long epoch, String problem);

  /**
   * The source cannot be reached (the connection is lost, or cannot be made); the running ring
   * stays until it is back.
   *
   * @param reason why, as the client says it
   */
  void unreachable(String reason);

  /** The source is reachable (again); its current state follows as an {@link #update}. */
  void connected();
}
