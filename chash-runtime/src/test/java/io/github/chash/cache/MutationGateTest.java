package io.github.chash.cache;

// The mutation gate: each planted protocol bug (Planted) switched on alone must be caught by the
// simulations, on fixed seeds (so the gate gives the same answer on every machine): the seeds that
// found such bugs before first, then the fleet and the one-JVM simulation by turns. Try more seeds,
// or another bug list:
//
//   ./mvnw -pl chash-runtime test -Dtest=MutationGateTest -Dchash.gate.budget=400 \
//       -Dchash.gate.bugs="no fence,near cache ignores an invalidation"

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Plants each protocol bug in turn and fails unless the simulations alone (no server) find a stale
 * read within the bug's seed budget; prints the seed that caught it and the seconds it took.
 */
@ExtendWith(QuietChashLogs.class)
class MutationGateTest {

  /**
   * A planted bug, the seeds tried first (of the fleet simulation, then of the one-JVM one), and
   * how many seeds of each simulation may follow the scripted scenarios over simulated servers.
   */
  record Bug(String name, List<Long> fleetFirst, List<Long> oneJvmFirst, int budget) {
    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * The bugs the gate holds the simulations to, all over servers that evict, restart, compare bytes
   * or {@code cas} uniques and see equal values put again ({@link SimWeaknesses}): those they catch
   * today, each in under 6 s on a loaded 2-core machine. No vouch: the scripted scenario (fleet
   * seeds 1011 and 1021 did before the fleet's rollout shapes changed their runs); a fresh JVM that
   * ignores the ring its configuration replaces: fleet seed 5 (4 before running JVMs changed
   * through the rings they missed); the target always ranked newest: fleet seed 88 (a change
   * reverted mid-rollout; 71 did before overlapping changes joined the runs); an unvouched target
   * copy left in place: fleet seed 431425876 (served once the windows end, though an evicted write
   * was newer; the first of the seeds from 431424000 to catch it since reads consult the previous
   * owners until the sweep: 431424950 and 431426370 did before); a fresh JVM told only the newest
   * ring its configuration replaces: fleet seed 5161 (a change made during another's rollout, JVMs
   * still on the ring before both); reads that stop consulting the previous owners at the window's
   * end, before the sweep: fleet seed 81568 (an older ring's evict waiting on the previous owner
   * for the sweep); a running JVM that jumps over the rings it missed: fleet seed 1076068417 (its
   * put never deleted a skipped ring's owner, whose older fill a JVM that ran that ring then moved
   * over the put); a vouch taken for any target's: the scripted scenario of a late JVM that skipped
   * a ring its file no longer names (fleet seed 5267 did until running JVMs changed through the
   * rings their file names); a near cache that ignores an invalidation: fleet seed 2 (near caches
   * in half the fleet's seeds, each hit held to the bound near caches promise between JVMs); no
   * unknown mark: one-JVM seed 30 (56 until sync loads waited for another JVM's fill); a restart
   * not recognised (planted in the simulated servers' model of the Redis node's check): fleet seed
   * 1; no fence, no lease, a move without its condition and no write version (planted in the model
   * of the Redis node's entry header): the scripted scenarios over simulated servers (the fence's
   * fleet seed 354154235 no longer meets the read between a put's two steps since the vouch rule
   * added calls, nor did 1,000 more seeds).
   */
  private static final List<Bug> GATED =
      List.of(
          new Bug(Planted.NO_FENCE, List.of(), List.of(), 40),
          new Bug(Planted.NO_UNKNOWN_MARK, List.of(), List.of(30L), 40),
          new Bug(Planted.NO_LEASE, List.of(4120415584L), List.of(), 40),
          new Bug(Planted.NO_VOUCH, List.of(1011L, 1021L), List.of(), 40),
          new Bug(Planted.UNCONDITIONAL_MOVE, List.of(), List.of(), 40),
          new Bug(SimServer.RESTART_NOT_RECOGNISED, List.of(1L), List.of(), 40),
          new Bug(Planted.NEAR_IGNORES_INVALIDATION, List.of(2L), List.of(), 40),
          new Bug(SimServer.NO_WRITE_VERSION, List.of(), List.of(), 40),
          new Bug(Planted.NO_REPLACED_RING, List.of(5L), List.of(), 40),
          new Bug(Planted.TARGET_ALWAYS_NEWEST, List.of(88L), List.of(), 40),
          new Bug(Planted.KEEP_UNVOUCHED, List.of(431425876L), List.of(), 40),
          new Bug(Planted.NEWEST_REPLACED_ONLY, List.of(5161L), List.of(), 40),
          new Bug(Planted.READS_STOP_AT_WINDOW_END, List.of(81568L), List.of(), 40),
          new Bug(Planted.SKIPPED_RINGS_SKIPPED, List.of(1076068417L), List.of(), 40),
          new Bug(Planted.VOUCH_ANY_TARGET, List.of(), List.of(), 40));

  /**
   * Planted bugs the simulations do not catch yet: the gate is weak there, and they join {@link
   * #GATED} once caught. Run them with {@code -Dchash.gate.bugs}. The sweep's order survived 1,000
   * seeds of each simulation and the scripted scenarios (2,002 runs, 287 s): since the vouch rule a
   * previous owner holding nothing is a miss, which is what the home-first order guarded. The one
   * reader it still protects is a JVM already on a later ring that places the key back on the
   * leftover's node without having run the leftover's ring, reading while a sweep is under way; but
   * such a JVM reads the same older value for any key not swept yet, whatever the order, so that
   * case is outside what the rollout asks (the next change once the sweeps are done), not a gap of
   * this gate.
   */
  private static final List<Bug> NOT_YET_CAUGHT =
      List.of(new Bug(Planted.SWEEP_HOME_LAST, List.of(4120415617L), List.of(), 300));

  static Stream<Bug> bugs() {
    String chosen = System.getProperty("chash.gate.bugs", "");
    int budget = Integer.getInteger("chash.gate.budget", 0);
    Stream<Bug> bugs =
        chosen.isBlank()
            ? GATED.stream()
            : Stream.concat(GATED.stream(), NOT_YET_CAUGHT.stream())
                .filter(b -> List.of(chosen.split(",")).contains(b.name()));
    return bugs.map(
        b -> budget > 0 ? new Bug(b.name(), b.fleetFirst(), b.oneJvmFirst(), budget) : b);
  }

  @AfterEach
  void unplant() {
    Planted.bugs = Set.of();
  }

  @ParameterizedTest
  @MethodSource("bugs")
  void plantedBugIsCaught(Bug bug) {
    Planted.bugs = Set.of(bug.name());
    long started = System.nanoTime();
    String caught = null;
    int tried = 0;
    for (long seed : bug.fleetFirst()) {
      tried++;
      if (fleetFinds(seed)) {
        caught = "fleet seed " + seed;
        break;
      }
    }
    for (long seed : bug.oneJvmFirst()) {
      if (caught == null) {
        tried++;
        caught = oneJvmFinds(seed) ? "one-JVM seed " + seed : null;
      }
    }
    if (caught == null) {
      tried++;
      String scenario = scenarioFinds();
      caught = scenario == null ? null : "the scenario over simulated servers " + scenario;
    }
    for (int i = 0; caught == null && i < bug.budget(); i++) {
      long seed = 1 + i;
      tried += 2;
      if (fleetFinds(seed)) {
        caught = "fleet seed " + seed;
      } else if (oneJvmFinds(seed)) {
        caught = "one-JVM seed " + seed;
      }
    }
    System.out.printf(
        "mutation gate: %s: %s after %d runs, %.1f s%n",
        bug.name(),
        caught == null ? "NOT CAUGHT" : "caught by " + caught,
        tried,
        (System.nanoTime() - started) / 1e9);
    assertThat(caught)
        .as("planted bug \"%s\" survived %d seeds of each simulation", bug.name(), bug.budget())
        .isNotNull();
  }

  /**
   * Runs the scripted protocol scenarios over simulated servers ({@link SimProtocolScenariosTest},
   * no server process) with the bug planted; {@return the first that fails, or null}
   */
  private static String scenarioFinds() {
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(SimProtocolScenariosTest.class))
                .build(),
            summary);
    return summary.getSummary().getFailures().stream()
        .map(f -> f.getTestIdentifier().getLegacyReportingName())
        .findFirst()
        .orElse(null);
  }

  private static boolean fleetFinds(long seed) {
    try {
      return !new FleetSimRun(
              seed, 1500, false, SimWeaknesses.fromProperties(SimWeaknesses.FLEET), true)
          .run()
          .violations()
          .isEmpty();
    } catch (RuntimeException e) {
      return false; // a run that broke down found no stale read
    }
  }

  private static boolean oneJvmFinds(long seed) {
    try {
      return !new SimRun(seed, 1000, false, SimWeaknesses.fromProperties(SimWeaknesses.ONE_JVM))
          .run()
          .violations()
          .isEmpty();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
