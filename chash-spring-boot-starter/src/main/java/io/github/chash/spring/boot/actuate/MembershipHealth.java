package io.github.chash.spring.boot.actuate;

import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipStatus;
import io.github.chash.membership.MembershipStatus.SourceState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link MembershipFollower}'s status as the {@code membership} details of the {@code chash}
 * health contributor: which ring this JVM runs, the newest one its source announced, whether it is
 * behind, and whether (and since when) the source is reachable.
 *
 * <p>Behind or unreachable makes the contributor {@code DEGRADED}, not {@code DOWN} or {@code
 * OUT_OF_SERVICE}: such a JVM keeps serving every call on its last good ring, which is what any JVM
 * of a fleet does while a change rolls out, and no read is stale as long as it catches up within
 * the migration window (operations, "Several JVMs"). Taking it out of its load balancer would not
 * make it catch up sooner, and a source outage would take the whole fleet out at once. A JVM that
 * stays behind past the window is what operators must see: in these details, in the {@code
 * chash.ring.behind} gauge and in the log.
 *
 * @param degraded whether this JVM is behind, or its source unreachable
 * @param description what is wrong in a few words, or null when nothing is
 * @param details the status, for the {@code membership} detail
 */
record MembershipHealth(boolean degraded, String description, Map<String, Object> details) {

  /** {@return the health of {@code status}} */
  static MembershipHealth of(MembershipStatus status) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("source", status.source());
    details.put("state", status.state().name());
    details.put("since", status.since().toString());
    // before the first state there is no epoch: left out, rather than Long.MIN_VALUE
    if (status.appliedEpoch() != MembershipFollower.NONE) {
      details.put("appliedEpoch", status.appliedEpoch());
      details.put("appliedRevision", status.appliedRevision());
      details.put("appliedAt", status.appliedAt().toString());
    }
    if (status.latestEpoch() != MembershipFollower.NONE) {
      details.put("latestEpoch", status.latestEpoch());
    }
    details.put("behind", status.behind());
    if (status.problem() != null) {
      details.put("problem", status.problem());
    }
    if (status.ignored() > 0) {
      details.put("ignored", status.ignored());
    }
    boolean unreachable = status.state() == SourceState.UNREACHABLE;
    String description = null;
    if (unreachable) {
      description = "membership source unreachable since " + status.since();
    } else if (status.behind()) {
      description =
          status.appliedEpoch() == MembershipFollower.NONE
              ? "no ring from the membership source yet"
              : "behind the membership source: epoch "
                  + status.appliedEpoch()
                  + " runs, "
                  + status.latestEpoch()
                  + " announced";
    }
    return new MembershipHealth(unreachable || status.behind(), description, details);
  }
}
