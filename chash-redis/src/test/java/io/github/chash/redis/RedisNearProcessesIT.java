package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 32's coherence check with two JVM processes on three real Redis servers: this JVM (A)
 * writes without a near cache, process B ({@link NearReaderWorker}) reads the same keys round and
 * round through its near cache and reports every change of what it reads, with System.nanoTime
 * stamps the two JVMs share on Linux. For 10,000 writes: how long after A's put returned B first
 * read the new value, and how late a read of B that began after the put returned still got the
 * older one; then B's tracking connection to one server is killed, and another server is restarted
 * empty: no read of B that began once its tracking connection was back returns a value from before.
 */
class RedisNearProcessesIT {
  private static final int KEYS = 64;
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final String FAILOVER = "{ failureLimit: 3, retryAfter: 1s, timeout: 1s }";

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  /** What B reported: per key, each change of the value it read, in order. */
  private static final class Reports {
    /** Per key: {version, start of the last read of the version before, end of the first read}. */
    private final List<List<long[]>> changes = new ArrayList<>();

    private String done;
    private boolean ready;

    Reports() {
      for (int k = 0; k < KEYS; k++) {
        changes.add(new ArrayList<>());
      }
    }

    synchronized void line(String line) {
      String[] f = line.split(" ");
      if (f[0].equals("C")) {
        changes
            .get(Integer.parseInt(f[1]))
            .add(new long[] {Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])});
      } else if (f[0].equals("DONE")) {
        done = line;
      } else if (f[0].equals("READY")) {
        ready = true;
      }
      notifyAll();
    }

    /** {@return B's first change of key k to version v or later; fails after 10 s} */
    synchronized long[] await(int k, long v) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT_NANOS;
      while (true) {
        for (long[] c : changes.get(k)) {
          if (c[0] >= v) {
            return c;
          }
        }
        long left = deadline - System.nanoTime();
        assertThat(left).as("B never read version %d of k%d", v, k).isPositive();
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    /**
     * Waits until B is up: its JVM started and its nodes answer. How long that takes depends on the
     * machine's load alone (a JVM's start, Netty's, one connect timeout), so it is not part of the
     * 10 s within which B must read a write: only B's exit ends this wait with a failure, and a
     * hang guard of 5 minutes, far beyond any start, stops a test that would never end.
     */
    synchronized void awaitReady(Process b) throws InterruptedException {
      long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (!ready) {
        assertThat(b.isAlive()).as("B exited before it was ready").isTrue();
        assertThat(System.nanoTime()).as("B not ready (hang guard)").isLessThan(guard);
        wait(100);
      }
    }

    synchronized String awaitDone() throws InterruptedException {
      long deadline = System.nanoTime() + WAIT_NANOS;
      while (done == null) {
        long left = deadline - System.nanoTime();
        assertThat(left).as("B never finished").isPositive();
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return done;
    }

    /**
     * {@return the reads of key k, as runs of one version, that returned a version in [0, maxOld]
     * and began after {@code since}} A run began after since if its last read did; the run B reads
     * now has no last read yet, so it counts when its version is old.
     */
    synchronized long staleRuns(int k, long maxOld, long since) {
      List<long[]> c = changes.get(k);
      long stale = 0;
      for (int i = 0; i < c.size(); i++) {
        long v = c.get(i)[0];
        long lastStart = i + 1 < c.size() ? c.get(i + 1)[1] : Long.MAX_VALUE;
        if (v >= 0 && v <= maxOld && lastStart - since > 0) {
          stale++;
        }
      }
      return stale;
    }
  }

  @Test
  void twoProcesses_writesReachTheNearCache_andNothingOlderOutlivesALostChannel() throws Exception {
    int writes = Integer.getInteger("chash.near.writes", 10_000);
    Path dir = Files.createTempDirectory("chash-near");
    Path config = dir.resolve("chash.yaml");
    Files.writeString(
        config,
        fleet.nodesYaml()
            + "caches:\n  users: { ttl: 10m, near: { maximumSize: 10000, ttl: 1m } }\n"
            // B ejects the restarted server (it reads all the time) and readmits it while A writes
            // there: a flush at the readmission would delete A's writes, which B must read
            + "failover: { failureLimit: 3, retryAfter: 1s, timeout: 1s, onRejoin: keep }\n");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process b =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                NearReaderWorker.class.getName(),
                config.toString(),
                Integer.toString(KEYS))
            .redirectError(dir.resolve("b.log").toFile())
            .start();
    Reports reports = new Reports();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(b.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  reports.line(line);
                }
              } catch (java.io.IOException ended) {
                // B is gone
              }
            });
    reader.start();
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER)) {
      // B's start is waited for on its own: the 10 s bound below is for reading a write, and it
      // included B's start, which alone took more than 10 s on a loaded machine (issue 45, item 2)
      reports.awaitReady(b);
      InterceptedCache a = InterceptedCache.of(jvmA.cache("users"));
      String[] keys = new String[KEYS];
      long[] version = new long[KEYS];
      for (int k = 0; k < KEYS; k++) {
        keys[k] = a.routingKey("k" + k, "test");
        a.put(keys[k], "0");
      }
      for (int k = 0; k < KEYS; k++) {
        reports.await(k, 0);
      }

      // 1. writes in A, read in B
      long[] delays = new long[writes];
      long[] lateness = new long[writes];
      for (int i = 0; i < writes; i++) {
        int k = i % KEYS;
        long v = ++version[k];
        a.put(keys[k], Long.toString(v));
        long completed = System.nanoTime();
        long[] seen = reports.await(k, v);
        delays[i] = Math.max(0, seen[2] - completed);
        lateness[i] = Math.max(0, seen[1] - completed);
      }
      Arrays.sort(delays);
      Arrays.sort(lateness);
      long late = Arrays.stream(lateness).filter(n -> n > 0).count();

      // 2. B's tracking connection to r1 killed; A writes the keys of r1, unreported to B
      long killedStale = lostChannel(a, jvmA, keys, version, reports, "r1", false);

      // 3. r2 restarted empty; A writes the keys of r2 once it is back
      long restartStale = lostChannel(a, jvmA, keys, version, reports, "r2", true);

      b.getOutputStream().close();
      String done = reports.awaitDone();
      System.out.printf(
          "%n=== near cache, 2 processes on 3 servers: A wrote %d values, B first read each"
              + " after p50 %.1f us, p99 %.1f us, max %.1f us (0: before A's put returned);"
              + " reads of B that began after A's put returned and still got the older value:"
              + " %d of %d writes, the latest began p99 %.1f us, max %.1f us after it;"
              + " after a killed tracking connection %d stale, after a restart %d stale;"
              + " B: %s (reads, near hits, versions that went back)%n",
          writes,
          delays[writes / 2] / 1e3,
          delays[(int) (writes * 0.99)] / 1e3,
          delays[writes - 1] / 1e3,
          late,
          writes,
          lateness[(int) (writes * 0.99)] / 1e3,
          lateness[writes - 1] / 1e3,
          killedStale,
          restartStale,
          done);
      assertThat(done).as("B's versions never went back").endsWith(" 0");
      assertThat(killedStale).as("B's reads of older values, tracking back").isZero();
      assertThat(restartStale).as("B's reads of values from before the restart").isZero();
    } finally {
      b.destroyForcibly();
      reader.join(10_000);
      if (b.waitFor(10, TimeUnit.SECONDS) && b.exitValue() != 0) {
        System.out.println("B's log: " + Files.readString(dir.resolve("b.log")));
      }
    }
  }

  /**
   * B loses its channel to {@code id} (its tracking connection killed, or the server restarted
   * empty) while it holds the server's keys; A then writes them, and B's reads that began once a
   * tracking connection was back on the server must not return any value from before.
   *
   * @return the stale runs of B's reads
   */
  private static long lostChannel(
      InterceptedCache a,
      ShardedCacheManager jvmA,
      String[] keys,
      long[] version,
      Reports reports,
      String id,
      boolean restart)
      throws Exception {
    RedisServerProcess server = fleet.server(id);
    List<Integer> onServer = new ArrayList<>();
    long[] old = version.clone(); // each key's last version before the loss
    for (int k = 0; k < KEYS; k++) {
      if (jvmA.ring().locate(keys[k]).id().equals(id)) {
        onServer.add(k);
      }
    }
    String before = trackingClient(server);
    if (restart) {
      server.kill();
      server.restart();
    } else {
      server.command("CLIENT", "KILL", "ADDR", before);
    }
    for (int k : onServer) {
      if (!restart) {
        a.put(keys[k], Long.toString(++version[k])); // B's channel is down: unreported
      }
    }
    Awaitility.await("B's tracking never came back on " + id)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofNanos(WAIT_NANOS))
        .until(() -> !trackingClient(server).equals(before));
    long back = System.nanoTime();
    RedisFleet.connected(jvmA);
    for (int k : onServer) {
      if (restart) {
        a.put(keys[k], Long.toString(++version[k]));
      }
      reports.await(k, version[k]);
    }
    long stale = 0;
    for (int k : onServer) {
      stale += reports.staleRuns(k, old[k], back);
    }
    return stale;
  }

  private static String field(String clientLine, String name) {
    for (String part : clientLine.split(" ")) {
      if (part.startsWith(name + "=")) {
        return part.substring(name.length() + 1);
      }
    }
    return "";
  }

  /** The client-side address of the server's one tracking connection (at most 10 s). */
  private static String trackingClient(RedisServerProcess server) {
    return Awaitility.await("no tracking client on " + server)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofNanos(WAIT_NANOS))
        .until(
            () -> {
              if (server.isRunning()) {
                for (String line : ((String) server.command("CLIENT", "LIST")).split("\n")) {
                  if (line.contains(" name=chash-tracking ")
                      && field(line, "flags").contains("t")) {
                    return field(line, "addr"); // tracking on: the server acknowledged it
                  }
                }
              }
              return null; // not yet
            },
            Objects::nonNull);
  }
}
