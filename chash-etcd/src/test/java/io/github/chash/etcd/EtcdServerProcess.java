package io.github.chash.etcd;

import io.github.chash.cache.ServerProcesses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * A real {@code etcd} process (Debian's {@code etcd-server}) on free loopback ports, a one-member
 * cluster with its data in a directory of the test's; stopped and started again on the same ports
 * and data. Public, in chash-etcd's test-jar, for the starter's Boot test of the etcd properties.
 */
public final class EtcdServerProcess implements AutoCloseable {
  private final Path dataDir;
  private final int clientPort = ServerProcesses.freePort(2379);
  private final int peerPort = ServerProcesses.freePort(2380);
  private Process process;

  /**
   * Starts etcd, its data under {@code dir}; skips the test where {@code etcd} is not on the PATH.
   *
   * @param dir a directory of the test's
   */
  public EtcdServerProcess(Path dir) {
    ServerProcesses.requireOnPath("etcd", "etcd-server");
    this.dataDir = dir.resolve("etcd");
    start();
  }

  /** {@return the client URL, {@code http://127.0.0.1:PORT}} */
  public String endpoint() {
    return "http://" + ServerProcesses.LOOPBACK + ":" + clientPort;
  }

  /** Starts the process, and waits until it listens. */
  public void start() {
    String client = endpoint();
    String peer = "http://" + ServerProcesses.LOOPBACK + ":" + peerPort;
    List<String> command =
        List.of(
            "etcd",
            "--name=chash-test",
            "--data-dir=" + dataDir,
            "--listen-client-urls=" + client,
            "--advertise-client-urls=" + client,
            "--listen-peer-urls=" + peer,
            "--initial-advertise-peer-urls=" + peer,
            "--initial-cluster=chash-test=" + peer,
            "--log-level=error");
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dataDir.resolveSibling("etcd.log").toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitPort();
  }

  /** Waits (at most 30 s) until the client port accepts connections. */
  private void awaitPort() {
    String failure =
        "etcd did not listen on " + endpoint() + " (see etcd.log in the test's directory)";
    Awaitility.await(failure)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .atMost(Duration.ofSeconds(30))
        .failFast(failure + ": the process exited", () -> !process.isAlive())
        .ignoreExceptionsInstanceOf(IOException.class)
        .until(
            () -> {
              try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(ServerProcesses.LOOPBACK, clientPort), 1000);
                return true;
              }
            });
  }

  /** Kills the process; {@link #start} runs it again on the same ports and data. */
  public void stop() {
    ServerProcesses.kill(process);
  }

  @Override
  public void close() {
    stop();
  }
}
