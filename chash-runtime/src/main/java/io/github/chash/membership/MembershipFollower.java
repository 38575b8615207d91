package io.github.chash.membership;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.membership.MembershipStatus.SourceState;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Moves a running {@link ShardedCacheManager} to each newer state of a {@link MembershipSource},
 * through {@link ShardedCacheManager#reconfigure} (the same protocol as a changed file), and tells
 * how far it got.
 *
 * <ul>
 *   <li><b>Newer epochs only.</b> An update whose epoch is not newer than the applied one (a repeat
 *       after a reconnection, a lagging replica's older state) is ignored and logged.
 *   <li><b>The last good ring stays.</b> While the source is unreachable, or when it holds a state
 *       that is not a valid ring or that the manager cannot apply, the manager keeps the ring it
 *       runs; each is logged once and reported in {@link #status()}. A state that could not be
 *       applied is not retried by itself: the source's next state is.
 *   <li><b>A JVM started mid-rollout starts as one that changed.</b> The first state applied, when
 *       it names the rings it replaces and their rollout runs ({@code migration.replaces}), is
 *       reached through them, as from a file.
 *   <li><b>Behind is visible.</b> {@link MembershipStatus#behind()} is true while the source has a
 *       newer epoch than the one applied.
 * </ul>
 *
 * <pre>{@code
 * MembershipFollower follower = MembershipFollower.follow(manager, config, source);
 * follower.status().behind();
 * }</pre>
 *
 * <p>Thread-safe: updates are applied one at a time; {@link #status()} never blocks on them.
 */
public final class MembershipFollower implements MembershipListener, AutoCloseable {
  /** The applied epoch before any: smaller than every epoch a source gives. */
  public static final long NONE = Long.MIN_VALUE;

  private static final System.Logger LOG = System.getLogger(MembershipFollower.class.getName());

  private final ShardedCacheManager manager;
  private final MembershipSource source;
  private final UnaryOperator<ChashConfig> adjust;
  private final Clock clock;
  private final Object published = new Object();

  /** The configuration the manager runs; guarded by this. */
  private ChashConfig running;

  /** The state reported; replaced whole, under {@link #published}. */
  private volatile MembershipStatus status;

  /**
   * A follower of {@code source} for {@code manager}; not started ({@link #follow} starts one).
   *
   * @param manager the manager to reconfigure
   * @param running the configuration the manager runs now (the one it was built from)
   * @param source the source of ring states
   * @param adjust turns a whole configuration a source holds into the one the manager runs (the
   *     Spring Boot starter's per-cache properties); not applied to a node list, which replaces the
   *     nodes of the running configuration
   * @param clock the clock times are read from
   */
  public MembershipFollower(
      ShardedCacheManager manager,
      ChashConfig running,
      MembershipSource source,
      UnaryOperator<ChashConfig> adjust,
      Clock clock) {
    this.manager = Objects.requireNonNull(manager, "manager");
    this.running = Objects.requireNonNull(running, "running");
    this.source = Objects.requireNonNull(source, "source");
    this.adjust = Objects.requireNonNull(adjust, "adjust");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.status =
        new MembershipStatus(
            source.describe(),
            SourceState.STARTING,
            clock.instant(),
            NONE,
            null,
            null,
            NONE,
            null,
            0);
  }

  /**
   * {@return a follower of {@code source} for {@code manager}, started}
   *
   * @param manager the manager to reconfigure
   * @param running the configuration the manager runs now (the one it was built from)
   * @param source the source of ring states, not started
   */
  public static MembershipFollower follow(
      ShardedCacheManager manager, ChashConfig running, MembershipSource source) {
    return follow(manager, running, source, UnaryOperator.identity());
  }

  /**
   * {@return a follower of {@code source} for {@code manager}, started; see {@link
   * #MembershipFollower}}
   *
   * @param manager the manager to reconfigure
   * @param running the configuration the manager runs now (the one it was built from)
   * @param source the source of ring states, not started
   * @param adjust turns a whole configuration a source holds into the one the manager runs
   */
  public static MembershipFollower follow(
      ShardedCacheManager manager,
      ChashConfig running,
      MembershipSource source,
      UnaryOperator<ChashConfig> adjust) {
    MembershipFollower follower =
        new MembershipFollower(manager, running, source, adjust, Clock.systemUTC());
    source.start(follower);
    return follower;
  }

  @Override
  public synchronized void update(RingUpdate update) {
    MembershipStatus now = status;
    long latest = Math.max(now.latestEpoch(), update.epoch());
    if (update.epoch() <= now.appliedEpoch()) {
      publish(now.state(), now.since(), latest, now.problem(), now.ignored() + 1);
      LOG.log(
          Level.INFO,
          "{0}: ignored epoch {1} ({2}), not newer than the applied epoch {3}",
          now.source(),
          String.valueOf(update.epoch()),
          update.revision(),
          String.valueOf(now.appliedEpoch()));
      return;
    }
    publish(now.state(), now.since(), latest, now.problem(), now.ignored());
    ChashConfig next;
    try {
      next = update.config() == null ? update.applyTo(running) : adjust.apply(update.config());
      if (now.appliedEpoch() == NONE && update.config() != null) {
        changeThroughReplaced(next);
      }
      if (!next.equals(running)) {
        manager.reconfigure(next);
      }
    } catch (RuntimeException e) {
      refuse(update.epoch(), "epoch " + update.epoch() + " cannot be applied: " + e.getMessage());
      return;
    }
    running = next;
    MembershipStatus before = status;
    synchronized (published) {
      status =
          new MembershipStatus(
              before.source(),
              before.state(),
              before.since(),
              update.epoch(),
              update.revision(),
              clock.instant(),
              Math.max(before.latestEpoch(), update.epoch()),
              null,
              before.ignored());
      published.notifyAll();
    }
    LOG.log(
        Level.INFO,
        "{0}: applied epoch {1} ({2}), {3} nodes",
        before.source(),
        String.valueOf(update.epoch()),
        update.revision(),
        String.valueOf(next.nodes().size()));
  }

  /**
   * The first whole configuration this JVM applies is its start (a node list has no migration
   * block; the file the manager was built from had its own): when it names the rings it replaces
   * ({@code migration.replaces}) and their rollout runs, the manager changes through each first, as
   * a JVM built from such a file does, so that it reads and fences the previous owners the JVMs not
   * yet on the new ring still write to.
   */
  private void changeThroughReplaced(ChashConfig next) {
    for (MigrationConfig.Replaces ring : next.migration().inRollout(clock.instant())) {
      ChashConfig replaced = next.withNodes(ring.nodes());
      if (!replaced.equals(running)) {
        manager.reconfigure(replaced);
        running = replaced;
      }
    }
  }

  @Override
  public synchronized void invalid(long epoch, String problem) {
    refuse(epoch, "epoch " + epoch + " is not a valid ring: " + problem);
  }

  /** Keeps the running ring, and reports why the source's newer state does not run. */
  private void refuse(long epoch, String problem) {
    MembershipStatus now = status;
    if (epoch <= now.appliedEpoch()) {
      return; // an older state: whatever is wrong with it, a newer one runs
    }
    if (!problem.equals(now.problem())) {
      LOG.log(Level.WARNING, "{0}: {1}; the running ring stays", now.source(), problem);
    }
    publish(now.state(), now.since(), Math.max(now.latestEpoch(), epoch), problem, now.ignored());
  }

  @Override
  public void unreachable(String reason) {
    MembershipStatus now = status;
    if (now.state() != SourceState.UNREACHABLE) {
      LOG.log(
          Level.WARNING,
          "{0} is unreachable ({1}); the running ring (epoch {2}) stays",
          now.source(),
          reason,
          String.valueOf(now.appliedEpoch()));
      state(SourceState.UNREACHABLE);
    }
  }

  @Override
  public void connected() {
    MembershipStatus now = status;
    if (now.state() != SourceState.CONNECTED) {
      if (now.state() == SourceState.UNREACHABLE) {
        LOG.log(Level.INFO, "{0} is reachable again", now.source());
      }
      state(SourceState.CONNECTED);
    }
  }

  private void state(SourceState state) {
    synchronized (published) {
      MembershipStatus now = status;
      if (now.state() != state) {
        publish(state, clock.instant(), now.latestEpoch(), now.problem(), now.ignored());
      }
    }
  }

  private void publish(
      SourceState state, Instant since, long latest, String problem, long ignored) {
    synchronized (published) {
      MembershipStatus now = status; // the applied epoch is only moved under this too
      status =
          new MembershipStatus(
              now.source(),
              state,
              since,
              now.appliedEpoch(),
              now.appliedRevision(),
              now.appliedAt(),
              Math.max(latest, now.latestEpoch()),
              problem,
              ignored);
      published.notifyAll();
    }
  }

  /** {@return the follower's state now; never blocks} */
  public MembershipStatus status() {
    return status;
  }

  /** {@return the configuration the manager runs, as this follower last applied it} */
  public synchronized ChashConfig running() {
    return running;
  }

  /**
   * Waits until an epoch at least {@code epoch} is applied: for a startup that should not serve on
   * the file's ring, and for tests.
   *
   * @param epoch the epoch to wait for
   * @param timeout how long to wait at most
   * @return whether it was applied in time
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  public boolean awaitEpoch(long epoch, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (published) {
      while (status.appliedEpoch() < epoch) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(published, left);
      }
      return true;
    }
  }

  /** Stops the source; the manager keeps the ring it runs. Never throws. */
  @Override
  public void close() {
    source.close();
  }
}
