package io.github.chash.it.redisonly;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A {@code redis-server} on a free 127.0.0.1 port, without persistence, stopped by {@link
 * #close()}. (chash-redis's own test harness shares its package with chash-redis, which a module
 * path cannot split; this user starts its servers itself.)
 */
final class RedisProcess implements AutoCloseable {
  private final Process process;
  private final int port;

  private RedisProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static RedisProcess start() throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Process process =
        new ProcessBuilder(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    RedisProcess server = new RedisProcess(process, port);
    String failure = "redis-server did not start on port " + port;
    try {
      Awaitility.await(failure)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(20)) // polling for the server's port, not ordering calls
          .atMost(Duration.ofSeconds(10))
          .failFast(failure + ": the process exited", () -> !process.isAlive())
          .ignoreExceptionsInstanceOf(IOException.class) // not yet
          .until(
              () -> {
                try (Socket socket = new Socket()) {
                  socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                  return true;
                }
              });
    } catch (RuntimeException notStarted) {
      server.close();
      throw notStarted;
    }
    return server;
  }

  int port() {
    return port;
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
