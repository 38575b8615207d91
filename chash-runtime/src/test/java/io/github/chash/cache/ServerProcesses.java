package io.github.chash.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

/**
 * What the test harnesses of real servers ({@code RedisServerProcess}, {@code
 * MemcachedServerProcess}) share: a free loopback port, signals, bounded kills and sleeps.
 */
public final class ServerProcesses {
  /** The only address test servers bind to. */
  public static final String LOOPBACK = "127.0.0.1";

  private ServerProcesses() {}

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
