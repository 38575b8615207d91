package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.text.Durations;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 on real servers and real JVMs: 3 processes ({@link FleetWorker}, 8 threads each) on 4
 * real cache servers, a 4th node added and later removed, each change reaching the processes
 * (through their own watched {@code chash.yaml}) in random order over 10-30 s. Every write is
 * recorded in a Redis used only by the test; every read of every process is checked against the
 * writes completed, in any process, before it began. One subclass per remote node type; {@code
 * -Dchash.fleet.repetitions=5} for the figures of operations.md.
 */
public abstract class FleetProcessesScenario {
  private static final int KEYS = 500;
  private static final int PROCESSES = 3;

  /** {@return the cache servers the processes share: four, and a fifth for overlapping changes} */
  protected abstract LoopbackFleet<?> fleet();

  /** {@return the URI of the Redis server that records the writes (not one of {@link #fleet})} */
  protected abstract String recorderUri();

  /**
   * The migration window of the rolling restart: every JVM must be replaced within it (operations,
   * "What it asks of the rollout"), and a fresh worker takes up to 20 s to start on a loaded 2-core
   * machine, so 3 of them 5 s apart take over a minute.
   */
  private static final String RESTART_WINDOW = "3m";

  private String yaml(List<String> ids) {
    return yaml(ids, "1m", "");
  }

  /** The configuration of {@code ids}; {@code migration} adds to its migration block. */
  private String yaml(List<String> ids, String window, String migration) {
    return fleet().nodesYaml(ids)
        + "caches:\n  users: { ttl: 10m }\n"
        + "failover: { failureLimit: 3, retryAfter: 1s, timeout: 200ms }\n"
        + "migration: { window: "
        + window
        + migration
        + " }\n";
  }

  @Test
  void rollingChanges_acrossProcesses_noStaleReadNoException() throws Exception {
    long seed = Long.getLong("chash.fleet.processSeed", System.nanoTime());
    Random random = new Random(seed);
    repeat("fleet of " + PROCESSES + " processes, seed " + seed, rep -> repetition(rep, random));
  }

  /** One repetition of a shape, on emptied servers and an emptied recorder. */
  private interface Repetition {
    void run(int rep) throws Exception;
  }

  /**
   * Runs {@code shape} {@code chash.fleet.repetitions} times (default 1). Opt-in until a JVM whose
   * delete on a previous owner failed (a timeout on a loaded machine) no longer leaves a copy
   * another JVM reads: then failures are per JVM (operations.md).
   */
  private void repeat(String what, Repetition shape) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Boolean.getBoolean("chash.fleet.real") || "1".equals(System.getenv("CHASH_FLEET")),
        "opt-in: -Dchash.fleet.real=true");
    int repetitions = Integer.getInteger("chash.fleet.repetitions", 1);
    System.out.printf("%n=== %s: %d repetitions%n", what, repetitions);
    for (int rep = 1; rep <= repetitions; rep++) {
      fleet().reset();
      recorder(RedisCommands::flushall);
      shape.run(rep);
    }
  }

  private void repetition(int rep, Random random) throws Exception {
    List<String> four = fleet().nodeIds().subList(0, 4);
    List<String> three = four.subList(0, 3);
    Path dir = Files.createTempDirectory("chash-fleet");
    int addSpread = 10 + random.nextInt(21);
    int removeSpread = 10 + random.nextInt(21);
    int runSeconds = 3 + addSpread + 3 + removeSpread + 3;
    List<Process> processes = new ArrayList<>();
    List<Path> configs = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    for (int p = 0; p < PROCESSES; p++) {
      Path config = dir.resolve("chash-" + p + ".yaml");
      write(config, yaml(three));
      Path out = dir.resolve("out-" + p + ".txt");
      configs.add(config);
      outputs.add(out);
      processes.add(startWorker(dir, p, runSeconds + 180));
    }
    try {
      for (Path out : outputs) {
        awaitReady(out);
      }
      Thread.sleep(3_000); // every JVM runs on 3 nodes
      rollOut(configs, yaml(four), addSpread, random);
      Thread.sleep(3_000);
      rollOut(configs, yaml(three), removeSpread, random);
      Thread.sleep(3_000);
      for (Path out : outputs) {
        Files.writeString(Path.of(out + ".stop"), "stop");
      }
      for (Process p : processes) {
        assertThat(p.waitFor(runSeconds + 60, TimeUnit.SECONDS)).as("worker ended").isTrue();
      }
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    assertExitedCleanly(dir, processes);
    Result r = check(rep, outputs, three, four);
    assertThat(r.added).as("processes that moved to 4 nodes").hasSize(PROCESSES);
    assertThat(r.removed).as("processes that moved back to 3 nodes").hasSize(PROCESSES);
    r.assertCoherent();
  }

  /**
   * Issue 41's rolling restart, as Kubernetes ships a changed ConfigMap: the 3 processes on 3 nodes
   * are replaced one at a time, {@code chash.fleet.restartGap} (default 5 s) apart, by fresh JVMs
   * started on 4 nodes (each new one ready before the old one stops, as a rollout with surge does),
   * while the processes not yet replaced keep writing on the old ring. The new configuration names
   * the ring it replaces ({@code migration.replaces}); without it ({@code
   * -Dchash.fleet.noReplaces=true}) a fresh JVM knows no previous owner.
   */
  @Test
  void rollingRestart_freshJvmsOnTheNewRing_noStaleReadNoException() throws Exception {
    long gapMillis = Long.getLong("chash.fleet.restartGap", 5_000);
    boolean replaces = !Boolean.getBoolean("chash.fleet.noReplaces");
    repeat(
        "rolling restart, " + gapMillis + " ms apart, replaces " + replaces,
        rep -> rollingRestart(rep, gapMillis, replaces));
  }

  private void rollingRestart(int rep, long gapMillis, boolean replaces) throws Exception {
    List<String> four = fleet().nodeIds().subList(0, 4);
    List<String> three = four.subList(0, 3);
    Path dir = Files.createTempDirectory("chash-restart");
    int most = 600;
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    try {
      for (int p = 0; p < PROCESSES; p++) {
        write(dir.resolve("chash-" + p + ".yaml"), yaml(three, RESTART_WINDOW, ""));
        outputs.add(dir.resolve("out-" + p + ".txt"));
        processes.add(startWorker(dir, p, most));
      }
      for (Path out : outputs) {
        awaitReady(out);
      }
      Thread.sleep(3_000); // every JVM runs on 3 nodes
      String since = java.time.Instant.now().toString();
      String next =
          yaml(
              four,
              RESTART_WINDOW,
              replaces ? ", replaces: { since: \"" + since + "\", nodes: " + three + " }" : "");
      for (int old = 0; old < PROCESSES; old++) {
        int fresh = PROCESSES + old;
        write(dir.resolve("chash-" + fresh + ".yaml"), next);
        outputs.add(dir.resolve("out-" + fresh + ".txt"));
        processes.add(startWorker(dir, fresh, most));
        awaitReady(outputs.get(fresh));
        Files.writeString(Path.of(outputs.get(old) + ".stop"), "stop");
        assertThat(processes.get(old).waitFor(60, TimeUnit.SECONDS))
            .as("old worker ended")
            .isTrue();
        Thread.sleep(gapMillis);
      }
      long rolloutMillis =
          java.time.Duration.between(java.time.Instant.parse(since), java.time.Instant.now())
              .toMillis();
      System.out.printf(
          "=== the rollout took %.1f s (window %s)%n", rolloutMillis / 1e3, RESTART_WINDOW);
      assertThat(rolloutMillis)
          .as("the rollout ran within the window, as operations.md asks")
          .isLessThan(Durations.parse(RESTART_WINDOW).toMillis());
      Thread.sleep(3_000);
      stop(outputs.subList(PROCESSES, 2 * PROCESSES), processes);
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    assertExitedCleanly(dir, processes);
    Result r = check(rep, outputs, three, four);
    assertThat(r.added).as("fresh processes on 4 nodes").hasSize(PROCESSES);
    r.assertCoherent();
  }

  /**
   * Issue 41's rollback: a 4th node reaches two of the 3 processes (through their watched files, 2
   * s apart), and is reverted there while the third never saw it, so JVMs run one ring for
   * different reasons: the third never left it, the two came back to it.
   */
  @Test
  void rollbackMidRollout_noStaleReadNoException() throws Exception {
    repeat("rollback mid-rollout", this::rollback);
  }

  private void rollback(int rep) throws Exception {
    List<String> four = fleet().nodeIds().subList(0, 4);
    List<String> three = four.subList(0, 3);
    Path dir = Files.createTempDirectory("chash-rollback");
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    try {
      startOn(three, dir, processes, outputs);
      write(dir.resolve("chash-0.yaml"), yaml(four));
      Thread.sleep(2_000);
      write(dir.resolve("chash-1.yaml"), yaml(four));
      Thread.sleep(3_000);
      write(dir.resolve("chash-0.yaml"), yaml(three)); // the rollback, before worker 2 changed
      Thread.sleep(2_000);
      write(dir.resolve("chash-1.yaml"), yaml(three));
      Thread.sleep(5_000);
      stop(outputs, processes);
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    assertExitedCleanly(dir, processes);
    Result r = check(rep, outputs, three, four);
    assertThat(r.added).as("processes that moved to 4 nodes").hasSize(2);
    assertThat(r.removed).as("processes that came back to 3 nodes").hasSize(2);
    r.assertCoherent();
  }

  /**
   * Issue 41's overlapping changes: a 4th node reaches two of the 3 processes (2 s apart); 2 s
   * later, before the third took it, a 5th node reaches the third, then 15 s later the other two, 2
   * s apart, so the third skips a ring the other two run meanwhile, and JVMs on three rings write
   * at once (keys the 4th node took from the first three, the 5th takes from it).
   */
  @Test
  void overlappingChanges_noStaleReadNoException() throws Exception {
    repeat("overlapping changes", this::overlapping);
  }

  private void overlapping(int rep) throws Exception {
    List<String> five = fleet().nodeIds().subList(0, 5);
    List<String> four = five.subList(0, 4);
    List<String> three = five.subList(0, 3);
    Path dir = Files.createTempDirectory("chash-overlap");
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    try {
      startOn(three, dir, processes, outputs);
      write(dir.resolve("chash-0.yaml"), yaml(four));
      Thread.sleep(2_000);
      write(dir.resolve("chash-1.yaml"), yaml(four));
      Thread.sleep(2_000);
      // the second change, first to the worker that skips one, 15 s before the others
      write(dir.resolve("chash-2.yaml"), yaml(five));
      Thread.sleep(15_000);
      write(dir.resolve("chash-0.yaml"), yaml(five));
      Thread.sleep(2_000);
      write(dir.resolve("chash-1.yaml"), yaml(five));
      Thread.sleep(2_000);
      Thread.sleep(3_000);
      stop(outputs, processes);
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    assertExitedCleanly(dir, processes);
    Result r = check(rep, outputs, three, four);
    assertThat(r.added).as("processes that took the 4th node").hasSize(2);
    assertThat(r.changedTo(nodesKey(five))).as("processes that took the second change").hasSize(3);
    r.assertCoherent();
  }

  /**
   * Issue 41's JVM killed mid-change: a 4th node reaches one process, then a second, which is
   * killed ({@code kill -9}) 2 s later and replaced by a fresh JVM on the same file (it names the
   * ring it replaces) while the third process still runs the old ring; the third takes the change
   * last.
   */
  @Test
  void killedAndRestartedMidChange_noStaleReadNoException() throws Exception {
    repeat("a JVM killed and restarted mid-change", this::killedMidChange);
  }

  private void killedMidChange(int rep) throws Exception {
    List<String> four = fleet().nodeIds().subList(0, 4);
    List<String> three = four.subList(0, 3);
    Path dir = Files.createTempDirectory("chash-killed");
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    try {
      startOn(three, dir, processes, outputs);
      String next =
          yaml(
              four,
              "1m",
              ", replaces: { since: \"" + java.time.Instant.now() + "\", nodes: " + three + " }");
      write(dir.resolve("chash-0.yaml"), next);
      Thread.sleep(2_000);
      write(dir.resolve("chash-1.yaml"), next);
      Thread.sleep(2_000);
      processes.get(1).destroyForcibly().waitFor(); // its reads and counts die with it
      int fresh = PROCESSES;
      write(dir.resolve("chash-" + fresh + ".yaml"), next);
      outputs.add(dir.resolve("out-" + fresh + ".txt"));
      processes.add(startWorker(dir, fresh, 600));
      awaitReady(outputs.get(fresh));
      Thread.sleep(2_000);
      write(dir.resolve("chash-2.yaml"), next);
      Thread.sleep(5_000);
      List<Path> alive = new ArrayList<>(outputs);
      alive.remove(1);
      List<Process> running = new ArrayList<>(processes);
      running.remove(1);
      stop(alive, running);
      outputs.remove(1);
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    for (int p = 0; p < processes.size(); p++) {
      if (p != 1) {
        assertExitedCleanly(dir, p, processes.get(p));
      }
    }
    Result r = check(rep, outputs, three, four);
    assertThat(r.added).as("living processes on 4 nodes").hasSize(PROCESSES);
    r.assertCoherent();
  }

  /**
   * Starts the 3 workers on {@code ring} (files {@code dir/chash-p.yaml}, outputs added to {@code
   * outputs}) and returns once every one has run on it for 3 s.
   */
  private void startOn(List<String> ring, Path dir, List<Process> processes, List<Path> outputs)
      throws Exception {
    for (int p = 0; p < PROCESSES; p++) {
      write(dir.resolve("chash-" + p + ".yaml"), yaml(ring));
      outputs.add(dir.resolve("out-" + p + ".txt"));
      processes.add(startWorker(dir, p, 600));
    }
    for (Path out : outputs) {
      awaitReady(out);
    }
    Thread.sleep(3_000); // every JVM runs on the ring
  }

  /** Tells the workers writing {@code outputs} to stop, and waits for every process to end. */
  private static void stop(List<Path> outputs, List<Process> processes) throws Exception {
    for (Path out : outputs) {
      Files.writeString(Path.of(out + ".stop"), "stop");
    }
    for (Process p : processes) {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("worker ended").isTrue();
    }
  }

  /** Starts worker {@code p} on {@code dir/chash-p.yaml}, writing {@code dir/out-p.txt}. */
  private Process startWorker(Path dir, int p, int mostSeconds) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            FleetWorker.class.getName(),
            dir.resolve("chash-" + p + ".yaml").toString(),
            recorderUri(),
            Integer.toString(KEYS),
            Integer.toString(mostSeconds),
            dir.resolve("out-" + p + ".txt").toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("log-" + p + ".txt").toFile())
        .start();
  }

  private static void awaitReady(Path out) throws InterruptedException {
    long readyBy = System.nanoTime() + 120_000_000_000L;
    while (!Files.exists(Path.of(out + ".ready"))) {
      assertThat(System.nanoTime() < readyBy).as("worker %s ready within 2 minutes", out).isTrue();
      Thread.sleep(50);
    }
  }

  private static void assertExitedCleanly(Path dir, List<Process> processes) throws Exception {
    for (int p = 0; p < processes.size(); p++) {
      assertExitedCleanly(dir, p, processes.get(p));
    }
  }

  private static void assertExitedCleanly(Path dir, int p, Process process) throws Exception {
    assertThat(process.exitValue())
        .as("worker %s exit; its log: %s", p, Files.readString(dir.resolve("log-" + p + ".txt")))
        .isZero();
  }

  /** Writes the new file to every process, one at a time, at random moments over the spread. */
  private static void rollOut(List<Path> configs, String yaml, int spreadSeconds, Random random)
      throws Exception {
    long[] at = new long[configs.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = random.nextInt(spreadSeconds * 1000 + 1);
    }
    at[0] = 0;
    at[at.length - 1] = spreadSeconds * 1000L; // the spread is the whole rollout
    Integer[] order = new Integer[configs.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Collections.shuffle(Arrays.asList(order), random);
    long start = System.currentTimeMillis();
    long[] sorted = at.clone();
    Arrays.sort(sorted);
    for (int i = 0; i < order.length; i++) {
      long wait = start + sorted[i] - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      write(configs.get(order[i]), yaml);
    }
  }

  private static void write(Path file, String yaml) throws Exception {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, yaml);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private Ring ring(List<String> ids) {
    ChashConfig c = ChashConfigs.parse(yaml(ids), "chash.yaml");
    return Rings.create(c.ring(), c.nodes().stream().map(NodeConfig::toNode).toList());
  }

  /**
   * What one run's outputs show; its assertions are the caller's, but for {@link #assertCoherent}.
   */
  private record Result(
      List<Long> added,
      List<Long> removed,
      long stale,
      long exceptions,
      long hits,
      Map<String, List<Long>> changes) {
    /** {@return when processes changed to the ring of {@code nodesKey}} */
    List<Long> changedTo(String nodesKey) {
      return changes.getOrDefault(nodesKey, List.of());
    }

    void assertCoherent() {
      assertThat(exceptions).as("exceptions that reached callers").isZero();
      assertThat(stale).as("stale reads across processes").isZero();
      assertThat(hits).isPositive();
    }
  }

  private Result check(int rep, List<Path> outputs, List<String> three, List<String> four)
      throws Exception {
    Ring small = ring(three);
    Ring big = ring(four);
    Map<String, Map<Long, Long>> begins = new HashMap<>();
    Map<String, Map<Long, Long>> ends = new HashMap<>();
    recorder(
        rec -> {
          for (int k = 0; k < KEYS; k++) {
            begins.put("k" + k, longs(rec.hgetall("b:k" + k)));
            ends.put("k" + k, longs(rec.hgetall("e:k" + k)));
          }
          return null;
        });
    long reads = 0;
    long hits = 0;
    long stale = 0;
    long loads = 0;
    long exceptions = 0;
    long migrationHits = 0;
    long nodeErrors = 0;
    List<String> examples = new ArrayList<>();
    Map<String, List<Long>> changes = new HashMap<>();
    List<long[]> reads_ = new ArrayList<>();
    for (Path out : outputs) {
      for (String line : Files.readAllLines(out)) {
        String[] f = line.split(" ");
        switch (f[0]) {
          case "R" -> {
            reads++;
            String k = f[1];
            long v = Long.parseLong(f[2]);
            long floor = Long.parseLong(f[3]);
            hits += Long.parseLong(f[6]);
            Map<Long, Long> b = begins.get(k);
            long lastValid = b.getOrDefault(v + 1, Long.MAX_VALUE);
            lastValid = Math.max(lastValid, ends.get(k).getOrDefault(v, Long.MAX_VALUE));
            if (floor > lastValid) {
              stale++;
              if (examples.size() < 5) {
                examples.add(
                    out.getFileName()
                        + " "
                        + k
                        + " read v"
                        + v
                        + " at "
                        + f[5]
                        + " (hit "
                        + f[6]
                        + ") with floor tick "
                        + floor
                        + "; v"
                        + (v + 1)
                        + " began at tick "
                        + b.get(v + 1)
                        + ", moved "
                        + !small.locate("users:" + k).id().equals(big.locate("users:" + k).id()));
              }
            }
            boolean moved = !small.locate("users:" + k).id().equals(big.locate("users:" + k).id());
            reads_.add(new long[] {Long.parseLong(f[5]), Long.parseLong(f[4]), moved ? 1 : 0});
          }
          case "C" ->
              changes.computeIfAbsent(f[2], x -> new ArrayList<>()).add(Long.parseLong(f[1]));
          case "S" -> {
            loads += Long.parseLong(f[1]);
            exceptions += Long.parseLong(f[2]);
            migrationHits += Long.parseLong(f[3]);
            nodeErrors += Long.parseLong(f[4]);
          }
          default -> throw new IllegalStateException("bad line " + line);
        }
      }
    }
    // convergence: from a change's first process to its last; the rollout's own spread included
    List<Long> added = changes.getOrDefault(nodesKey(four), List.of());
    List<Long> threeTimes = new ArrayList<>(changes.getOrDefault(nodesKey(three), List.of()));
    threeTimes.sort(null);
    List<Long> removed =
        threeTimes.size() > PROCESSES
            ? threeTimes.subList(PROCESSES, threeTimes.size())
            : List.of();
    long addFirst = added.stream().mapToLong(x -> x).min().orElse(0);
    long addLast = added.stream().mapToLong(x -> x).max().orElse(0);
    long removeFirst = removed.stream().mapToLong(x -> x).min().orElse(0);
    long removeLast = removed.stream().mapToLong(x -> x).max().orElse(0);
    List<Long> during = new ArrayList<>();
    List<Long> outside = new ArrayList<>();
    for (long[] r : reads_) {
      if (r[2] == 0) {
        continue;
      }
      boolean inRollout =
          (r[0] >= addFirst && r[0] <= addLast) || (r[0] >= removeFirst && r[0] <= removeLast);
      (inRollout ? during : outside).add(r[1]);
    }
    System.out.printf(
        "=== changes (ms): %s%n=== repetition %d: %d reads, %d hits, %d loader calls,"
            + " %d migration hits, %d node errors; stale reads %d, caller exceptions %d; convergence add %.1f s,"
            + " remove %.1f s (%d and %d processes changed); moved-key read latency p50/p99:"
            + " during the rollouts %s, outside %s %s%n",
        changes,
        rep,
        reads,
        hits,
        loads,
        migrationHits,
        nodeErrors,
        stale,
        exceptions,
        (addLast - addFirst) / 1e3,
        (removeLast - removeFirst) / 1e3,
        added.size(),
        removed.size(),
        percentiles(during),
        percentiles(outside),
        examples);
    return new Result(added, removed, stale, exceptions, hits, changes);
  }

  /** Runs the call on a connection to the recorder. */
  private void recorder(java.util.function.Function<RedisCommands<String, String>, ?> call) {
    RedisClient client = RedisClient.create(recorderUri());
    try (StatefulRedisConnection<String, String> conn = client.connect()) {
      call.apply(conn.sync());
    } finally {
      client.shutdown();
    }
  }

  private String nodesKey(List<String> ids) {
    return ring(ids).nodes().toString().replace(' ', '_');
  }

  private static Map<Long, Long> longs(Map<String, String> m) {
    Map<Long, Long> out = new HashMap<>();
    m.forEach((k, v) -> out.put(Long.parseLong(k), Long.parseLong(v)));
    return out;
  }

  private static String percentiles(List<Long> nanos) {
    if (nanos.isEmpty()) {
      return "-";
    }
    long[] a = nanos.stream().mapToLong(x -> x).sorted().toArray();
    return String.format(
        "%.2f/%.2f ms (%d)", a[a.length / 2] / 1e6, a[(int) (a.length * 0.99)] / 1e6, a.length);
  }
}
