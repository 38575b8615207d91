package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 40: lagging replicas, simulated. A node that reads from replicas sends a read of a key this
 * JVM wrote to the primary until the replicas' replication offsets show every replica has that
 * write ({@link RecentWrites}, {@link ReplicationOffsets}: the real classes). Here they run against
 * a seeded model of Redis's asynchronous replication that is no stronger than the real thing:
 *
 * <ul>
 *   <li>the primary appends each write to its stream; each of 1-3 replicas applies the stream at
 *       its own pace, and now and then stalls for 0.2-3 s (a full resync, a slow disk, a network
 *       problem), however long the node's {@code replicaLag};
 *   <li>the primary knows a replica's progress only from its acknowledgements, sent once a second
 *       at a phase of the replica's own, so {@code INFO replication} shows each replica behind what
 *       it applied;
 *   <li>the node stamps a reading when it sends {@code INFO} and the primary answers 0-20 ms later,
 *       with the writes applied meanwhile in its offset;
 *   <li>a read that may go to a replica goes to any of them.
 * </ul>
 *
 * <p>The invariant: a read never returns a value older than this JVM's own last completed write of
 * the key. Two planted rules prove the simulation can fail: the rule before issue 40 (a write
 * counts as on every replica once {@code replicaLag} passed), and one that judges by the most
 * advanced replica instead of the slowest.
 */
class ReplicaReadsSimulationTest {
  private static final long MS = 1_000_000;
  private static final int SEEDS = Integer.getInteger("chash.replicaSim.seeds", 300);
  private static final int STEPS = 30_000; // one step a millisecond: 30 s a seed
  private static final int KEYS = 400;

  /** What decides which writes the replicas have. */
  enum Rule {
    /** The node's: the slowest replica's acknowledged offset, as the primary reports it. */
    OFFSETS,
    /** Planted: a write counts as on every replica once {@code replicaLag} passed. */
    FIXED_LAG,
    /** Planted: the primary's report read as if it listed only its most advanced replica. */
    MOST_ADVANCED_REPLICA
  }

  /** A seed's counts: reads older than this JVM's own last write, and reads sent to replicas. */
  record Result(long seed, int stale, int replicaReads, int reads) {}

  @Test
  void readsFromLaggingReplicas_neverOlderThanTheCallersOwnLastWrite() {
    int replicaReads = 0;
    int reads = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      Result result = run(seed, Rule.OFFSETS);
      assertThat(result.stale()).as("stale reads, seed %d", seed).isZero();
      replicaReads += result.replicaReads();
      reads += result.reads();
    }
    System.out.printf(
        "%n=== lagging replicas, %d seeds of %d s: %d reads, %d of them from replicas, 0 stale%n",
        SEEDS, STEPS / 1000, reads, replicaReads);
    // the rule does not buy its safety by never reading a replica
    assertThat(replicaReads).as("reads sent to replicas").isGreaterThan(reads / 4);
  }

  @Test
  void planted_aFixedLag_isCaught() {
    assertThat(firstStale(Rule.FIXED_LAG)).as("a seed with a stale read").isNotNull();
  }

  @Test
  void planted_theMostAdvancedReplicaInsteadOfTheSlowest_isCaught() {
    assertThat(firstStale(Rule.MOST_ADVANCED_REPLICA)).as("a seed with a stale read").isNotNull();
  }

  private static Result firstStale(Rule rule) {
    for (long seed = 0; seed < SEEDS; seed++) {
      Result result = run(seed, rule);
      if (result.stale() > 0) {
        System.out.printf(
            "%n=== planted %s: seed %d, %d stale of %d reads%n",
            rule, seed, result.stale(), result.reads());
        return result;
      }
    }
    return null;
  }

  /** A replica: how far into the primary's stream it applied, and what it acknowledged. */
  private static final class Replica {
    final Map<String, Integer> data = new HashMap<>();
    final long ackPhaseMs;
    int applied;
    int acked;
    long stalledUntilMs;

    Replica(long ackPhaseMs) {
      this.ackPhaseMs = ackPhaseMs;
    }
  }

  /** An {@code INFO replication} on its way back: stamped when sent, filled when answered. */
  private record Poll(long answeredMs, long stampedNanos) {}

  static Result run(long seed, Rule rule) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] now = {0};
    List<String> streamKeys = new ArrayList<>();
    List<Integer> streamVersions = new ArrayList<>();
    Map<String, Integer> primary = new HashMap<>();
    Map<String, Integer> ownLastWrite = new HashMap<>();
    List<Replica> replicas = new ArrayList<>();
    int replicaCount = 1 + random.nextInt(3);
    for (int i = 0; i < replicaCount; i++) {
      replicas.add(new Replica(random.nextInt(1000)));
    }
    long replicaLagMs = 100 + random.nextInt(900);
    RecentWrites recent = new RecentWrites(50 + random.nextInt(500), () -> now[0]);
    ReplicationOffsets offsets = new ReplicationOffsets();
    PriorityQueue<Poll> polls =
        new PriorityQueue<>((a, b) -> Long.compare(a.answeredMs, b.answeredMs));
    double writeShare = 0.02 + random.nextDouble() * 0.28;
    int stale = 0;
    int replicaReads = 0;
    int reads = 0;
    for (long ms = 0; ms < STEPS; ms++) {
      now[0] = ms * MS;
      for (Replica replica : replicas) {
        if (replica.stalledUntilMs <= ms && random.nextInt(4000) == 0) {
          replica.stalledUntilMs = ms + 200 + random.nextInt(2800);
        }
        if (replica.stalledUntilMs <= ms) {
          int target = Math.min(streamKeys.size(), replica.applied + 1 + random.nextInt(4));
          while (replica.applied < target) {
            replica.data.put(streamKeys.get(replica.applied), streamVersions.get(replica.applied));
            replica.applied++;
          }
          if (ms % 1000 == replica.ackPhaseMs) {
            replica.acked = replica.applied; // REPLCONF ACK, once a second
          }
        }
      }
      while (!polls.isEmpty() && polls.peek().answeredMs <= ms) {
        Poll poll = polls.poll();
        offsets
            .read(poll.stampedNanos, info(streamKeys.size(), replicas, rule))
            .ifPresent(recent::confirmedBefore);
      }
      if (ms % replicaLagMs == 0) {
        if (rule == Rule.FIXED_LAG) {
          recent.confirmedBefore(now[0] - replicaLagMs * MS);
        } else {
          polls.add(new Poll(ms + random.nextInt(21), now[0]));
        }
      }
      String key = "k" + random.nextInt(KEYS);
      if (random.nextDouble() < writeShare) {
        int version = ownLastWrite.merge(key, 1, Integer::sum);
        streamKeys.add(key);
        streamVersions.add(version);
        primary.put(key, version);
        recent.wrote(key); // after its reply: the primary has it
      } else {
        reads++;
        Map<String, Integer> source = primary;
        if (!recent.needsPrimary(key)) {
          source = replicas.get(random.nextInt(replicas.size())).data;
          replicaReads++;
        }
        if (source.getOrDefault(key, 0) < ownLastWrite.getOrDefault(key, 0)) {
          stale++;
        }
      }
    }
    return new Result(seed, stale, replicaReads, reads);
  }

  /** The primary's {@code INFO replication} now, as the rule reads it. */
  private static String info(int offset, List<Replica> replicas, Rule rule) {
    List<Integer> listed = new ArrayList<>();
    replicas.forEach(replica -> listed.add(replica.acked));
    if (rule == Rule.MOST_ADVANCED_REPLICA) {
      int most = listed.stream().max(Integer::compare).orElseThrow();
      listed.clear();
      listed.add(most);
    }
    StringBuilder info = new StringBuilder("# Replication\r\nrole:master\r\n");
    for (int i = 0; i < listed.size(); i++) {
      info.append("slave")
          .append(i)
          .append(":ip=127.0.0.1,port=700")
          .append(i)
          .append(",state=online,offset=")
          .append(listed.get(i))
          .append(",lag=0\r\n");
    }
    return info.append("master_replid:stream\r\nmaster_repl_offset:")
        .append(offset)
        .append("\r\n")
        .toString();
  }
}
