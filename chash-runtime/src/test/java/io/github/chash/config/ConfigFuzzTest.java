package io.github.chash.config;

import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Drives {@link ChashConfigs} with the corpus in {@code src/test/resources/fuzz/chash-config/} and
 * with inputs {@link FuzzYaml} generates and mutates from it, for {@code chash.fuzz.seconds}
 * (default 60). Every input must return a configuration or throw a {@link ConfigException} whose
 * every problem has file, line and column, within 1 s of CPU time and 64 MB allocated by the
 * parsing thread; CPU time and allocation, not wall time, so a busy machine does not fail it. An
 * input still running after 30 s of wall time is a hang and fails the test with the input.
 *
 * <p>A failure prints the input's seed; {@code -Dchash.fuzz.seed=S} replays that input alone, and
 * the input is written to {@code target/fuzz-failures/S.yaml}. Once fixed, copy that file into the
 * corpus under a name saying what it tries (see the corpus README).
 */
class ConfigFuzzTest {
  static final long MAX_CPU_NANOS = TimeUnit.SECONDS.toNanos(1);
  static final long MAX_ALLOCATED_BYTES = 64L * 1024 * 1024;
  static final long HANG_SECONDS = 30;
  static final String CORPUS = "fuzz/chash-config";

  @Test
  void everyInput_returnsOrIsRefusedWithALocation_withinBudget() throws Exception {
    List<byte[]> corpus = corpus();
    String replay = System.getProperty("chash.fuzz.seed");
    long seconds = Long.getLong("chash.fuzz.seconds", 60);
    long runSeed = replay != null ? 0 : new SplittableRandom().nextLong();
    Stats stats = new Stats();
    ExecutorService worker =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "chash-fuzz");
              t.setDaemon(true);
              return t;
            });
    try {
      for (int i = 0; i < corpus.size(); i++) {
        check(worker, corpus.get(i), i % 2 == 0, "corpus file " + corpusNames().get(i), stats);
      }
      if (replay != null) {
        long seed = Long.parseLong(replay);
        runOne(worker, seed, corpus, stats);
      } else {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        SplittableRandom seeds = new SplittableRandom(runSeed);
        // bounded: by the deadline, and by a count no run reaches
        for (long i = 0; i < 100_000_000L && System.nanoTime() < deadline; i++) {
          runOne(worker, seeds.nextLong(), corpus, stats);
        }
      }
    } finally {
      worker.shutdownNow();
    }
    System.out.printf(
        "ConfigFuzzTest: %d inputs in %d s (run seed %d): %d accepted, %d refused; costliest"
            + " %.1f ms CPU, %.1f MB allocated (%s)%n",
        stats.inputs,
        seconds,
        runSeed,
        stats.accepted,
        stats.refused,
        stats.maxCpu / 1e6,
        stats.maxAllocated / 1048576.0,
        stats.costliest);
  }

  private static void runOne(ExecutorService worker, long seed, List<byte[]> corpus, Stats stats)
      throws Exception {
    FuzzYaml fuzz = new FuzzYaml(seed);
    byte[] input = fuzz.next(corpus);
    // half the inputs go in as text (lone surrogates included), half as bytes (decoding too)
    check(worker, input, (seed & 1) == 0, "seed " + seed, stats);
  }

  private static void check(
      ExecutorService worker, byte[] input, boolean asText, String name, Stats stats)
      throws Exception {
    Future<Outcome> future = worker.submit(() -> parse(input, asText));
    Outcome outcome;
    try {
      outcome = future.get(HANG_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw failure(name, input, "still parsing after " + HANG_SECONDS + " s: a hang", null);
    } catch (ExecutionException e) {
      throw failure(name, input, "the harness failed", e.getCause());
    }
    stats.inputs++;
    if (outcome.thrown == null) {
      stats.accepted++;
    } else if (outcome.thrown instanceof ConfigException e) {
      stats.refused++;
      for (ConfigProblem p : e.problems()) {
        if (!p.file().equals("chash.yaml")
            || p.line() < 1
            || p.column() < 1
            || p.message() == null
            || p.message().isBlank()) {
          throw failure(name, input, "a problem without a location or message: " + p, e);
        }
      }
    } else {
      throw failure(name, input, "threw " + outcome.thrown.getClass().getName(), outcome.thrown);
    }
    if (outcome.cpuNanos > MAX_CPU_NANOS) {
      throw failure(name, input, "took " + outcome.cpuNanos / 1_000_000 + " ms of CPU", null);
    }
    if (outcome.allocated > MAX_ALLOCATED_BYTES) {
      throw failure(name, input, "allocated " + (outcome.allocated >> 20) + " MB", null);
    }
    if (outcome.cpuNanos > stats.maxCpu) {
      stats.maxCpu = outcome.cpuNanos;
    }
    if (outcome.allocated > stats.maxAllocated) {
      stats.maxAllocated = outcome.allocated;
      stats.costliest = name;
    }
  }

  /** Runs in the worker thread, so its CPU time and allocation are those of the parse alone. */
  private static Outcome parse(byte[] input, boolean asText) {
    String text = asText ? new String(input, StandardCharsets.UTF_8) : null;
    long cpu = ConfigTesting.threadCpuNanos();
    long allocated = ConfigTesting.threadAllocatedBytes();
    Throwable thrown = null;
    try {
      if (asText) {
        ChashConfigs.parse(text, "chash.yaml");
      } else {
        ChashConfigs.load(new ByteArrayInputStream(input), "chash.yaml");
      }
    } catch (Throwable t) { // an Error too: it must be reported with the input
      thrown = t;
    }
    return new Outcome(
        thrown,
        ConfigTesting.threadCpuNanos() - cpu,
        ConfigTesting.threadAllocatedBytes() - allocated);
  }

  private static AssertionError failure(String name, byte[] input, String what, Throwable cause) {
    String file = "not written";
    try {
      Path dir = Path.of("target", "fuzz-failures");
      Files.createDirectories(dir);
      Path path = dir.resolve(name.replaceAll("[^A-Za-z0-9.-]+", "_") + ".yaml");
      Files.write(path, input);
      file = path.toString();
    } catch (IOException e) {
      file = "not written: " + e;
    }
    String text = new String(input, StandardCharsets.UTF_8);
    String shown =
        text.length() > 2000 ? text.substring(0, 2000) + "... (" + text.length() + " chars)" : text;
    String replay =
        name.startsWith("seed ")
            ? "\nreplay: ./mvnw -pl chash-runtime test -Dtest=ConfigFuzzTest -Dchash.fuzz.seed="
                + name.substring(5)
            : "";
    AssertionError error =
        new AssertionError(
            name + ": " + what + "; input in " + file + replay + "\ninput:\n" + shown);
    if (cause != null) {
      error.initCause(cause);
    }
    return error;
  }

  static List<byte[]> corpus() throws IOException, URISyntaxException {
    List<byte[]> out = new ArrayList<>();
    for (String name : corpusNames()) {
      out.add(Files.readAllBytes(corpusDir().resolve(name)));
    }
    if (out.size() < 30) {
      fail("expected the corpus in " + CORPUS + ", found " + out.size() + " files");
    }
    return out;
  }

  private static List<String> corpusNames() throws IOException, URISyntaxException {
    try (Stream<Path> files = Files.list(corpusDir())) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".yaml"))
          .sorted()
          .toList();
    }
  }

  private static Path corpusDir() throws URISyntaxException {
    return Path.of(ConfigFuzzTest.class.getClassLoader().getResource(CORPUS).toURI());
  }

  private record Outcome(Throwable thrown, long cpuNanos, long allocated) {}

  private static final class Stats {
    long inputs;
    long accepted;
    long refused;
    long maxCpu;
    long maxAllocated;
    String costliest = "none";
  }
}
