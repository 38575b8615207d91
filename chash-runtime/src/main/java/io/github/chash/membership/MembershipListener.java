package io.github.chash.membership;

import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;

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

  /**
   * Delivers a {@code chash.yaml} document the source holds ({@link RingUpdate#parse}): as an
   * {@link #update} when it is valid, as {@link #invalid} with each problem's where:line:column
   * otherwise.
   *
   * @param epoch the source's revision of the document
   * @param revision the source's own words for this state
   * @param utf8 the document, UTF-8 encoded
   * @param where what messages name the document by, e.g. {@code /chash/nodes}
   */
  default void document(long epoch, String revision, byte[] utf8, String where) {
    RingUpdate update;
    try {
      update = RingUpdate.parse(epoch, revision, utf8, where);
    } catch (ConfigException e) {
      invalid(
          epoch, String.join("; ", e.problems().stream().map(ConfigProblem::toString).toList()));
      return;
    }
    update(update);
  }
}
