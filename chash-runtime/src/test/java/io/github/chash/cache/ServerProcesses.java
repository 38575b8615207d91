package io.github.chash.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * What the test harnesses of real servers ({@code RedisServerProcess}, {@code
 * MemcachedServerProcess}) share: a free loopback port, signals, bounded kills and sleeps.
 */
public final class ServerProcesses {
  /** The only address test servers bind to. */
  public static final String LOOPBACK = "127.0.0.1";

  /**
   * Set to {@code 1} (CI does), a server binary missing from the PATH fails the tests that need it
   * instead of skipping them.
   */
  public static final String REQUIRE_SERVERS = "CHASH_REQUIRE_SERVERS";

  private ServerProcesses() {}

  /**
   * Returns when {@code binary} is on the PATH. Otherwise the calling test (or class, from a
   * {@code @BeforeAll}) is skipped, with a warning on standard error that names the server and how
   * to install it, so a machine without the server still runs every other test; with {@link
   * #REQUIRE_SERVERS}{@code =1} it fails.
   *
   * @param binary the server's executable ({@code redis-server}, {@code memcached})
   * @param debianPackage the package that installs it
   */
  public static void requireOnPath(String binary, String debianPackage) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, binary))) {
        return;
      }
    }
    String missing =
        binary
            + " is not on the PATH, and the tests that run real "
            + binary
            + " processes need it: install it (`apt-get install -y "
            + debianPackage
            + "` on Debian/Ubuntu)";
    if ("1".equals(System.getenv(REQUIRE_SERVERS))) {
      throw new IllegalStateException(missing + "; " + REQUIRE_SERVERS + "=1 makes this a failure");
    }
    // on every skip, under the test runner's "Running <class>" line: a class skipped from its
    // @BeforeAll counts as no test at all in the runner's summary
    System.err.println("[WARNING] SKIPPED: " + missing + " to run them");
    Assumptions.abort(missing + "; skipped");
  }

  /**
   * A free TCP port on {@link #LOOPBACK}, never {@code reserved} (the server's well-known port).
   */
  public static int freePort(int reserved) {
    for (int i = 0; i < 100; i++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
        int candidate = socket.getLocalPort();
        if (candidate != reserved) {
          return candidate;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    throw new IllegalStateException("no free port on " + LOOPBACK);
  }

  /**
   * Waits (at most 5 s) until every thread of the process is in the given state of {@code
   * /proc/PID/task/TID/stat} ({@code T}: stopped by a signal); returns at once where there is no
   * {@code /proc}.
   */
  public static void awaitState(Process process, char state) {
    Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
    Awaitility.await("process " + process.pid() + " never reached state " + state)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> {
              try (java.util.stream.Stream<Path> threads = Files.list(tasks)) {
                return threads.allMatch(task -> inState(task.resolve("stat"), state));
              } catch (IOException | UncheckedIOException e) {
                return true; // no /proc, or the process is gone
              }
            });
  }

  private static boolean inState(Path stat, char state) {
    String line;
    try {
      line = Files.readString(stat);
    } catch (IOException e) {
      return true; // the thread ended
    }
    // "pid (comm) S ...": the state follows the last ')'
    int close = line.lastIndexOf(')');
    return close >= 0 && close + 2 < line.length() && line.charAt(close + 2) == state;
  }

  /** Sends a signal ({@code -STOP}, {@code -CONT}) to the process, waiting at most 5 s. */
  public static void signal(Process process, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start();
      kill.waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGKILL (which also ends a SIGSTOPped process), waiting at most 10 s; null or dead: no-op. */
  public static void kill(Process process) {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Sleeps; an interrupt fails the test. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
