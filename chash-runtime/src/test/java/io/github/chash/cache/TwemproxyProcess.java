package io.github.chash.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Debian's twemproxy ({@code nutcracker}, package {@code nutcracker}) as a real process on a free
 * 127.0.0.1 port: one pool with {@code distribution: ketama}, {@code hash: md5}, in front of the
 * given backends ({@code host:port:weight [name]} lines), for memcached or Redis. Its stats port is
 * free too. Every wait is bounded; {@link #close()} stops it and deletes its files.
 */
public final class TwemproxyProcess extends LoopbackServer {
  private static final int RESERVED_PORT = 22121;
  private static final int RESERVED_STATS_PORT = 22222;

  private final Path dir;
  private final List<String> servers;
  private final boolean redis;
  private final int statsPort;

  private TwemproxyProcess(Path dir, int port, List<String> servers, boolean redis) {
    super("nutcracker", RESERVED_PORT, port);
    this.dir = dir;
    this.servers = servers;
    this.redis = redis;
    this.statsPort = ServerProcesses.freePort(RESERVED_STATS_PORT);
  }

  /**
   * Starts nutcracker in front of {@code servers} ({@code 127.0.0.1:6400:1 alpha}).
   *
   * @param redis whether the backends are Redis servers (else memcached)
   */
  public static TwemproxyProcess start(List<String> servers, boolean redis) {
    ServerProcesses.requireOnPath("nutcracker", "nutcracker");
    Path dir;
    try {
      dir = Files.createTempDirectory("chash-twemproxy-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return startOnFreePort(
        "nutcracker",
        RESERVED_PORT,
        port -> new TwemproxyProcess(dir, port, servers, redis),
        () -> {});
  }

  @Override
  protected ProcessBuilder command() {
    StringBuilder yml =
        new StringBuilder("pool:\n")
            .append("  listen: 127.0.0.1:")
            .append(port())
            .append("\n  distribution: ketama\n  hash: md5\n  redis: ")
            .append(redis)
            .append("\n  auto_eject_hosts: false\n  timeout: 10000\n  servers:\n");
    servers.forEach(s -> yml.append("   - ").append(s).append('\n'));
    Path config = dir.resolve("nutcracker-" + port() + ".yml");
    try {
      Files.writeString(config, yml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ProcessBuilder(
            "nutcracker",
            "-c",
            config.toString(),
            "-s",
            Integer.toString(statsPort),
            "-a",
            "127.0.0.1",
            "-o",
            logFile().toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("nutcracker.out").toFile());
  }

  private Path logFile() {
    return dir.resolve("nutcracker.log");
  }

  @Override
  protected boolean answers() {
    try (Socket socket = connect()) {
      return socket.isConnected(); // nutcracker listens once its pool is set up
    } catch (IOException notYet) {
      return false;
    }
  }

  /** {@code redis://127.0.0.1:PORT} or {@code memcached://127.0.0.1:PORT}: the proxy itself. */
  @Override
  public String uri() {
    return (redis ? "redis://" : "memcached://") + ServerProcesses.LOOPBACK + ":" + port();
  }

  @Override
  public String log() {
    try {
      return Files.exists(logFile()) ? Files.readString(logFile()) : "";
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  protected void deleteFiles() {
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    } catch (IOException ignored) {
      // temporary files left behind are harmless
    }
  }
}
