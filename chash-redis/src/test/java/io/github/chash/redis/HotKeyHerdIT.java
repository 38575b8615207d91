package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ServerProcesses;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hot key's shared load stays one load per JVM at a time (issue 42): 3 JVMs ({@link
 * HotKeyWorker}) of 50 threads each get one key of a cache with {@code ttl: 1s} through a 200 ms
 * loader, on real Redis servers. Callers of one key in one JVM share its load, and a load whose
 * fill did not land (its lease taken by another JVM's write, or the fill failed or timed out, as
 * under a starved client) is followed by one more load its joiners share, never by one load per
 * joiner: so in each JVM no two loads of the key ever run at once, and that is what it asserts.
 *
 * <p>It prints the loads per expiry (loads whose starts lie within half a TTL of each other, across
 * the JVMs, are one expiry's), for the measurement in operations.md, which ran it with {@code
 * -Dchash.herd.seconds=20 -Dchash.herd.runs=3} beside two CPU burners. {@code
 * -Dchash.herd.classes=DIR} puts a directory of classes first on the workers' class path (an older
 * {@code Loads}, to measure the herd before the fix).
 */
class HotKeyHerdIT {
  private static final int JVMS = 3;
  private static final long SECONDS = Long.getLong("chash.herd.seconds", 6);
  private static final int RUNS = Integer.getInteger("chash.herd.runs", 1);
  private static final String TIMEOUT = System.getProperty("chash.herd.timeout", "");
  private static final long TTL_MILLIS = 1_000;
  private static final Pattern DONE =
      Pattern.compile(
          "done gets=(\\d+) errors=(\\d+) loads=(\\d+) overlap=(\\d+) (leasesLost=\\d+ nodeErrors=\\d+)"
              + " starts=(.*)");

  private static RedisFleet fleet;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    ServerProcesses.requireOnPath("redis-server", "redis-server");
    fleet = RedisFleet.start(3);
  }

  @AfterAll
  static void stop() {
    if (fleet != null) {
      fleet.close();
    }
  }

  @Test
  void eachJvmRunsOneLoadOfAHotKeyAtATime() throws Exception {
    for (int run = 1; run <= RUNS; run++) {
      fleet.reset();
      oneRun(run);
    }
  }

  private void oneRun(int run) throws Exception {
    Path yaml = dir.resolve("chash.yaml");
    Files.writeString(
        yaml,
        fleet.nodesYaml()
            + "caches:\n  hot: { ttl: 1s }\n"
            + (TIMEOUT.isEmpty() ? "" : "failover: { timeout: " + TIMEOUT + " }\n"));
    List<Worker> workers = new ArrayList<>();
    try {
      for (int i = 0; i < JVMS; i++) {
        workers.add(Worker.start(yaml));
      }
      for (Worker w : workers) {
        w.expect("ready");
      }
      for (Worker w : workers) {
        w.go();
      }
      List<Matcher> done = new ArrayList<>();
      for (Worker w : workers) {
        Matcher m = DONE.matcher(w.expect("done "));
        assertThat(m.matches()).isTrue();
        done.add(m);
      }
      report(run, done);
      for (int i = 0; i < JVMS; i++) {
        assertThat(Integer.parseInt(done.get(i).group(4)))
            .as("loads of the key running at once at most, run %d, JVM %d", run, i + 1)
            .isEqualTo(1);
      }
    } finally {
      workers.forEach(Worker::close);
    }
  }

  /** Prints the loads per expiry: in all, and at most in one JVM. */
  private static void report(int run, List<Matcher> done) {
    List<long[]> starts = new ArrayList<>(); // {start, jvm}
    StringBuilder jvms = new StringBuilder();
    for (int i = 0; i < done.size(); i++) {
      Matcher m = done.get(i);
      jvms.append(
          String.format(
              " jvm%d gets=%s errors=%s loads=%s overlap=%s %s",
              i + 1, m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)));
      if (!m.group(6).isEmpty()) {
        for (String s : m.group(6).split(",")) {
          starts.add(new long[] {Long.parseLong(s), i});
        }
      }
    }
    starts.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Integer> perExpiry = new ArrayList<>();
    int maxPerJvm = 0;
    int[] jvmCounts = new int[done.size()];
    long last = Long.MIN_VALUE;
    for (long[] s : starts) {
      if (last != Long.MIN_VALUE && s[0] - last > TTL_MILLIS / 2) {
        perExpiry.add(Arrays.stream(jvmCounts).sum());
        maxPerJvm = Math.max(maxPerJvm, Arrays.stream(jvmCounts).max().orElse(0));
        Arrays.fill(jvmCounts, 0);
      }
      jvmCounts[(int) s[1]]++;
      last = s[0];
    }
    if (!starts.isEmpty()) {
      perExpiry.add(Arrays.stream(jvmCounts).sum());
      maxPerJvm = Math.max(maxPerJvm, Arrays.stream(jvmCounts).max().orElse(0));
    }
    Map<Integer, Integer> histogram = new TreeMap<>();
    perExpiry.forEach(n -> histogram.merge(n, 1, Integer::sum));
    List<Integer> sorted = new ArrayList<>(perExpiry);
    sorted.sort(null);
    System.out.printf(
        "%nhot key herd, run %d: %d JVMs x %d threads, %d s: expiries=%d loads=%d mean=%.2f median=%s"
            + " max=%s maxPerJvm=%d histogram(loads: expiries)=%s;%s%n",
        run,
        done.size(),
        HotKeyWorker.THREADS,
        SECONDS,
        perExpiry.size(),
        starts.size(),
        perExpiry.isEmpty() ? 0.0 : (double) starts.size() / perExpiry.size(),
        sorted.isEmpty() ? "-" : sorted.get(sorted.size() / 2),
        sorted.isEmpty() ? "-" : sorted.get(sorted.size() - 1),
        maxPerJvm,
        histogram,
        jvms);
  }

  /** One worker JVM. */
  private static final class Worker {
    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final List<String> seen = new ArrayList<>();

    private Worker(Process process) {
      this.process = process;
      this.out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    static Worker start(Path yaml) throws IOException {
      String classes = System.getProperty("chash.herd.classes", "");
      String classPath =
          (classes.isEmpty() ? "" : classes + File.pathSeparator)
              + System.getProperty("java.class.path");
      List<String> command =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              classPath,
              HotKeyWorker.class.getName(),
              yaml.toString(),
              Long.toString(SECONDS));
      return new Worker(
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    void go() throws IOException {
      in.write("go\n");
      in.flush();
    }

    /** The next line that starts with the prefix; fails at the end of the output. */
    String expect(String prefix) throws IOException {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        seen.add(line);
        if (line.startsWith(prefix)) {
          return line;
        }
      }
      throw new AssertionError("a worker ended without a \"" + prefix + "\" line: " + seen);
    }

    void close() {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
