package io.github.chash.micrometer;

import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipStatus;
import io.github.chash.membership.MembershipStatus.SourceState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * The gauges of a {@link MembershipFollower}, read from its {@link MembershipStatus}, so that a
 * fleet's dashboards see which pods run which ring and which are behind a change:
 *
 * <ul>
 *   <li>{@value #EPOCH}: the epoch of the ring this JVM runs (NaN before the first);
 *   <li>{@value #LATEST}: the newest epoch its source delivered or announced (NaN before the
 *       first);
 *   <li>{@value #BEHIND}: 1 while the source has a ring this JVM does not run (bad data, a failed
 *       reconfigure, or none applied yet), else 0;
 *   <li>{@value #REACHABLE}: 1 while the source can be reached, else 0 (the last good ring runs).
 * </ul>
 *
 * <p>The Spring Boot starter binds one for every {@code MembershipFollower} bean; outside Spring,
 * {@code new MembershipMeterBinder(follower).bindTo(registry)}.
 */
public final class MembershipMeterBinder implements MeterBinder {
  /** The gauge of the applied epoch. */
  public static final String EPOCH = "chash.ring.epoch";

  /** The gauge of the newest epoch the source has. */
  public static final String LATEST = "chash.ring.epoch.latest";

  /** The gauge that is 1 while this JVM runs an older ring than its source has. */
  public static final String BEHIND = "chash.ring.behind";

  /** The gauge that is 1 while the membership source can be reached. */
  public static final String REACHABLE = "chash.membership.reachable";

  private final MembershipFollower follower;

  /**
   * Binds the gauges of one follower.
   *
   * @param follower the follower
   */
  public MembershipMeterBinder(MembershipFollower follower) {
    this.follower = Objects.requireNonNull(follower, "follower");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder(EPOCH, follower, f -> epoch(f.status().appliedEpoch()))
        .description("The epoch of the ring this JVM runs, as its membership source numbers them")
        .register(registry);
    Gauge.builder(LATEST, follower, f -> epoch(f.status().latestEpoch()))
        .description("The newest ring epoch the membership source delivered or announced")
        .register(registry);
    Gauge.builder(BEHIND, follower, f -> f.status().behind() ? 1 : 0)
        .description("1 while the membership source has a ring this JVM does not run")
        .register(registry);
    Gauge.builder(REACHABLE, follower, f -> f.status().state() == SourceState.CONNECTED ? 1 : 0)
        .description("1 while the membership source can be reached")
        .register(registry);
  }

  /** An epoch as a gauge value: none yet is NaN, so no chart shows a made-up epoch. */
  private static double epoch(long epoch) {
    return epoch == MembershipFollower.NONE ? Double.NaN : epoch;
  }
}
