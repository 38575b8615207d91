package io.github.chash.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.function.IntFunction;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * The life of a real server process that tests run on 127.0.0.1, shared by {@code
 * RedisServerProcess} and {@code MemcachedServerProcess}: started on a free port (never the
 * server's well-known one), retried on another port when a bind race is lost, {@code kill -9},
 * SIGSTOP and SIGCONT, restart on the same port, and a JVM shutdown hook that kills a server a test
 * forgot to close. Every wait is bounded. A subclass gives the command line, the readiness probe
 * and its files. Not thread-safe: one test drives it.
 */
public abstract class LoopbackServer implements TestServer, AutoCloseable {
  private static final int BIND_ATTEMPTS = 8;
  private static final Duration STARTUP = Duration.ofSeconds(15);

  private final String name;
  private final int reservedPort;
  private final int port;
  private Process process;
  private final Thread reaper;

  /**
   * @param name the server's executable, for messages ({@code redis-server})
   * @param reservedPort its well-known port, which tests never use
   * @param port the port it runs on
   */
  protected LoopbackServer(String name, int reservedPort, int port) {
    this.name = name;
    this.reservedPort = reservedPort;
    this.port = port;
    this.reaper = new Thread(() -> ServerProcesses.kill(process), name + "-test-server-reaper");
  }

  /**
   * Starts one of the servers {@code atPort} makes for a free port, trying another port while
   * another process wins the race for the one probed; runs {@code giveUp} before failing.
   *
   * @throws IllegalStateException if no server came up after several ports
   */
  protected static <S extends LoopbackServer> S startOnFreePort(
      String name, int reservedPort, IntFunction<S> atPort, Runnable giveUp) {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
      S server = atPort.apply(ServerProcesses.freePort(reservedPort));
      LoopbackServer base = server;
      try {
        base.launch();
        Runtime.getRuntime().addShutdownHook(base.reaper);
        return server;
      } catch (IllegalStateException bindRace) {
        last = bindRace; // another process took the port between our probe and the bind
      }
    }
    giveUp.run();
    throw new IllegalStateException(
        "could not start " + name + " after " + BIND_ATTEMPTS + " ports", last);
  }

  /** {@return the server's command line, run for each start; its output goes to its log} */
  protected abstract ProcessBuilder command();

  /** {@return whether the started server answers} Called until it does, or for 15 s. */
  protected abstract boolean answers();

  /** {@return the URI a node of this server's type gives for it in {@code chash.yaml}} */
  public abstract String uri();

  /** {@return the server's log so far, for failure messages} */
  public abstract String log();

  /** Deletes the server's files, after it is dead. */
  protected abstract void deleteFiles();

  /** The TCP port, stable across {@link #restart()}. */
  @Override
  public final int port() {
    return port;
  }

  /** The process id of the running server. */
  @Override
  public final long pid() {
    return process.pid();
  }

  /** Whether the process is alive. */
  @Override
  public final boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** {@code kill -9}: the server dies at once, with all its data (no persistence). */
  @Override
  public final void kill() {
    ServerProcesses.kill(process);
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
  @Override
  public final void pause() {
    ServerProcesses.signal(process, "-STOP");
    // kill returns once the signal is sent; the server may still answer until it is delivered
    ServerProcesses.awaitState(process, 'T');
  }

  /** Thaws a {@link #pause() paused} server (SIGCONT). */
  @Override
  public final void resume() {
    ServerProcesses.signal(process, "-CONT");
  }

  /**
   * Starts a fresh, empty server on the same port after {@link #kill()}.
   *
   * @throws IllegalStateException if it is still running or does not come up
   */
  @Override
  public final void restart() {
    if (isRunning()) {
      throw new IllegalStateException(name + " on port " + port + " is still running");
    }
    launch();
  }

  /** Kills the server and deletes its files. Idempotent. */
  @Override
  public final void close() {
    ServerProcesses.kill(process);
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run
    }
    deleteFiles();
  }

  @Override
  public String toString() {
    return name
        + "["
        + ServerProcesses.LOOPBACK
        + ":"
        + port
        + (isRunning() ? ", running]" : ", stopped]");
  }

  /** {@return a connection to the server, 1 s to connect, 5 s a read} */
  protected final Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(
        new InetSocketAddress(InetAddress.getByName(ServerProcesses.LOOPBACK), port), 1000);
    socket.setSoTimeout(5000);
    return socket;
  }

  private void launch() {
    if (port == reservedPort) {
      throw new IllegalStateException("refusing to use port " + reservedPort);
    }
    try {
      process = command().start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not run " + name, e);
    }
    String exited = name + " exited on port " + port;
    String silent = name + " did not answer on port " + port;
    try {
      Awaitility.await(silent)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(20))
          .atMost(STARTUP)
          .failFast(exited, () -> !process.isAlive())
          .until(this::answers);
    } catch (TerminalFailureException e) {
      throw new IllegalStateException(exited + ": " + log(), e);
    } catch (ConditionTimeoutException e) {
      ServerProcesses.kill(process);
      throw new IllegalStateException(silent + ": " + log(), e);
    }
  }
}
