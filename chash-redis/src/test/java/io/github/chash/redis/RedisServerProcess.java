package io.github.chash.redis;

import io.github.chash.cache.LoopbackServer;
import io.github.chash.cache.ServerProcesses;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} process for tests, bound to 127.0.0.1 on a free port, without
 * persistence, in its own temporary directory.
 *
 * <p>Supports {@code kill -9} ({@link #kill()}), restart on the same port ({@link #restart()}),
 * freezing ({@link #pause()}, SIGSTOP) and {@code requirepass}. It may run as a replica of another
 * ({@link #startReplicaOf}) or as a sentinel ({@link #startSentinel}). It never uses port 6379 (nor
 * 26379 for a sentinel). A JVM shutdown hook kills servers a test forgot to close. If {@code
 * redis-server} is not on the PATH, starting one skips the test, saying how to install it ({@link
 * ServerProcesses#requireOnPath}). Not thread-safe: one test drives it.
 */
public final class RedisServerProcess extends LoopbackServer {
  private static final String LOOPBACK = ServerProcesses.LOOPBACK;
  private static final int RESERVED_PORT = 6379;
  private static final int RESERVED_SENTINEL_PORT = 26379;
  private final String password;
  private final Tls tls;
  private final Path dir;

  /** The port of the server this one replicates when it starts, or 0. */
  private int replicaOf;

  /** Whether the next start loads the append-only files ({@code appendonly yes}), once. */
  private boolean appendOnlyStart;

  /** A sentinel's configuration lines after its port, or null for a server. */
  private final List<String> sentinelConfig;

  /** The log's length when the current start began: a TLS server's readiness is read after it. */
  private int logStart;

  /**
   * TLS files of a server that speaks only TLS.
   *
   * @param certificate the server's certificate (PEM)
   * @param key its private key (PEM)
   * @param authority the CA certificate (PEM)
   */
  public record Tls(Path certificate, Path key, Path authority) {}

  private RedisServerProcess(
      String password, Tls tls, Path dir, int port, int replicaOf, List<String> sentinelConfig) {
    super(
        sentinelConfig == null ? "redis-server" : "redis-sentinel",
        sentinelConfig == null ? RESERVED_PORT : RESERVED_SENTINEL_PORT,
        port);
    this.password = password;
    this.tls = tls;
    this.dir = dir;
    this.replicaOf = replicaOf;
    this.sentinelConfig = sentinelConfig;
  }

  /** Starts a server without a password that replicates {@code primary} ({@code replicaof}). */
  public static RedisServerProcess startReplicaOf(RedisServerProcess primary) {
    return start(null, null, primary.port(), null);
  }

  /**
   * Starts a sentinel ({@code redis-server sentinel.conf --sentinel}) that monitors {@code primary}
   * as {@code master}, with the given quorum and timings; sentinels that monitor the same primary
   * find each other through it.
   *
   * @param master the name the sentinel monitors the primary by
   * @param primary the primary, on 127.0.0.1
   * @param quorum sentinels that must agree the primary is down
   * @param downAfterMillis {@code down-after-milliseconds}
   * @param failoverTimeoutMillis {@code failover-timeout}
   */
  public static RedisServerProcess startSentinel(
      String master,
      RedisServerProcess primary,
      int quorum,
      long downAfterMillis,
      long failoverTimeoutMillis) {
    return start(
        null,
        null,
        0,
        List.of(
            "sentinel monitor " + master + " " + LOOPBACK + " " + primary.port() + " " + quorum,
            "sentinel down-after-milliseconds " + master + " " + downAfterMillis,
            "sentinel failover-timeout " + master + " " + failoverTimeoutMillis,
            "sentinel parallel-syncs " + master + " 1"));
  }

  /** Starts a server without a password. */
  public static RedisServerProcess start() {
    return start(null);
  }

  /**
   * Starts a server; with a non-null {@code password} it runs with {@code requirepass}.
   *
   * @throws IllegalStateException if no server came up after several free ports were tried
   */
  public static RedisServerProcess start(String password) {
    return start(password, null);
  }

  /**
   * Starts a server that accepts only TLS connections (no plain-text port), clients not
   * authenticated by certificate. {@link #command} and the other plain-text helpers do not work on
   * it.
   */
  public static RedisServerProcess startTls(Tls tls) {
    return start(null, tls);
  }

  private static RedisServerProcess start(String password, Tls tls) {
    return start(password, tls, 0, null);
  }

  private static RedisServerProcess start(
      String password, Tls tls, int replicaOf, List<String> sentinelConfig) {
    ServerProcesses.requireOnPath("redis-server", "redis-server");
    Path dir;
    try {
      dir = Files.createTempDirectory("chash-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return startOnFreePort(
        sentinelConfig == null ? "redis-server" : "redis-sentinel",
        sentinelConfig == null ? RESERVED_PORT : RESERVED_SENTINEL_PORT,
        port -> new RedisServerProcess(password, tls, dir, port, replicaOf, sentinelConfig),
        () -> deleteTree(dir));
  }

  /**
   * Starts a fresh, empty server on the same port after {@link #kill()}, as a replica of {@code
   * primary}: a killed primary that its supervisor brings back after a promotion.
   */
  public void restartAsReplicaOf(RedisServerProcess primary) {
    replicaOf = primary.port();
    restart();
  }

  /**
   * Starts the server again after {@link #kill()}, on the same port, from its append-only files
   * ({@code appendonlydir} in {@link #dir()}, which the server writes once {@code CONFIG SET
   * appendonly yes}), not its RDB file; later restarts load the RDB file again.
   */
  public void restartFromAppendOnlyFiles() {
    appendOnlyStart = true;
    try {
      restart();
    } finally {
      appendOnlyStart = false;
    }
  }

  /** The server's working directory: its RDB file and its {@code appendonlydir}. */
  public Path dir() {
    return dir;
  }

  /** {@code redis://127.0.0.1:PORT}, or {@code rediss://} for a TLS server (no credentials). */
  @Override
  public String uri() {
    return (tls != null ? "rediss://" : "redis://") + LOOPBACK + ":" + port();
  }

  /**
   * Sends one command (RESP) on a fresh connection, authenticating first when a password is set,
   * and returns the reply: {@code String}, {@code Long}, {@code null}, or a {@code List} of those.
   *
   * @throws IllegalStateException on an error reply, naming it
   */
  public Object command(String... args) {
    try (Socket socket = connect()) {
      Resp resp = new Resp(socket);
      if (password != null) {
        resp.call("AUTH", password);
      }
      return resp.call(args);
    } catch (IOException e) {
      throw new UncheckedIOException("redis on port " + port() + ": " + args[0] + " failed", e);
    }
  }

  /**
   * All keys matching a glob pattern, by {@code SCAN} (like {@code redis-cli --scan}), except the
   * records of the server's incarnation that chash's nodes keep under their prefixes ({@link
   * ServerIncarnation}, {@code <prefix>incarnation}): the keys a test wrote or expects.
   */
  public List<String> keys(String pattern) {
    List<String> keys = allKeys(pattern);
    keys.removeIf(k -> k.endsWith(ServerIncarnation.recordKey(":")));
    return keys;
  }

  /** {@link #keys} with the incarnation's record. */
  public List<String> allKeys(String pattern) {
    List<String> keys = new ArrayList<>();
    String cursor = "0";
    do {
      List<?> reply = (List<?>) command("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
      cursor = (String) reply.get(0);
      for (Object key : (List<?>) reply.get(1)) {
        keys.add((String) key);
      }
    } while (!cursor.equals("0"));
    return keys;
  }

  /** The raw bytes stored at a key, or null. */
  public byte[] getBytes(String key) {
    try (Socket socket = connect()) {
      Resp resp = new Resp(socket);
      if (password != null) {
        resp.call("AUTH", password);
      }
      return resp.callBytes("GET", key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stores raw bytes at a key, without expiry. */
  public void setBytes(String key, byte[] value) {
    try (Socket socket = connect()) {
      Resp resp = new Resp(socket);
      if (password != null) {
        resp.call("AUTH", password);
      }
      resp.send(List.of(key.getBytes(StandardCharsets.UTF_8), value), "SET");
      resp.read();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The own bytes (a value's codec bytes, or a marker's) of a chash entry under the default prefix,
   * as a node reads them: null when there is none, or it is of another incarnation than the one the
   * server's record names ({@link ServerIncarnation}). Reads only: works on a replica.
   */
  public byte[] getEntry(String key) {
    byte[] record = getBytes(ServerIncarnation.recordKey("chash:"));
    if (record == null) {
      return null;
    }
    String tag = new String(record, StandardCharsets.US_ASCII).split(" ")[0];
    return ServerIncarnation.unwrap(ServerIncarnation.header(tag), getBytes(key));
  }

  /**
   * Stores own bytes as a chash entry of the server's current incarnation under the default prefix,
   * as a node would (vetting the incarnation first, as a node does): hostile or foreign values
   * planted by a test reach the decoder as a node's own would.
   */
  public void setEntry(String key, byte[] own) {
    String tag =
        (String)
            command(
                "EVAL",
                ServerIncarnation.VET,
                "1",
                ServerIncarnation.recordKey("chash:"),
                ServerIncarnation.newTag());
    tag = ServerIncarnation.VetReply.parse(tag).tag();
    setBytes(key, ServerIncarnation.wrap(ServerIncarnation.header(tag), own, own));
  }

  /** The server's log so far (for failure messages). */
  public String log() {
    try {
      return Files.readString(dir.resolve("redis.log"));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  protected void deleteFiles() {
    deleteTree(dir);
  }

  @Override
  protected ProcessBuilder command() {
    logStart = log().length();
    if (sentinelConfig != null) {
      return sentinelCommand();
    }
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "redis-server",
                "--port",
                tls != null ? "0" : Integer.toString(port()),
                "--bind",
                LOOPBACK,
                "--save",
                "",
                "--appendonly",
                appendOnlyStart ? "yes" : "no",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no",
                "--databases",
                "16",
                // a replica's first sync starts at once, not after Redis 7's default 5 s
                "--repl-diskless-sync-delay",
                "0"));
    if (replicaOf != 0) {
      cmd.addAll(List.of("--replicaof", LOOPBACK, Integer.toString(replicaOf)));
    }
    if (password != null) {
      cmd.add("--requirepass");
      cmd.add(password);
    }
    if (tls != null) {
      cmd.addAll(
          List.of(
              "--tls-port", Integer.toString(port()),
              "--tls-cert-file", tls.certificate().toString(),
              "--tls-key-file", tls.key().toString(),
              "--tls-ca-cert-file", tls.authority().toString(),
              "--tls-auth-clients", "no"));
    }
    return new ProcessBuilder(cmd)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()));
  }

  /**
   * A sentinel's command line. Its configuration file is written at the first start (or again when
   * it names another port, left by an attempt that lost its port to another process): the sentinel
   * rewrites it with what it learned (the current primary, the other sentinels), which a restart
   * keeps.
   */
  private ProcessBuilder sentinelCommand() {
    Path conf = dir.resolve("sentinel.conf");
    if (!sentinelConfigHasPort(conf)) {
      List<String> lines = new ArrayList<>();
      lines.add("port " + port());
      lines.add("bind " + LOOPBACK);
      lines.add("dir " + dir);
      lines.add("daemonize no");
      lines.addAll(sentinelConfig);
      try {
        Files.write(conf, lines);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new ProcessBuilder("redis-server", conf.toString(), "--sentinel")
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()));
  }

  private boolean sentinelConfigHasPort(Path conf) {
    try {
      return Files.readAllLines(conf).contains("port " + port());
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether it answers: a PING on the plain-text port; a TLS server's readiness line in the log
   * written since this start.
   */
  @Override
  protected boolean answers() {
    return tls != null
        ? log().indexOf("Ready to accept connections", logStart) >= 0
        : answersPing();
  }

  private boolean answersPing() {
    try (Socket socket = connect()) {
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      byte[] reply = socket.getInputStream().readNBytes(5);
      String text = new String(reply, StandardCharsets.US_ASCII);
      // with requirepass the server answers -NOAUTH: it is up all the same
      return text.equals("+PONG") || text.equals("-NOAU");
    } catch (IOException notYet) {
      return false;
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp dir left behind is harmless
    }
  }

  /** Just enough RESP2 for tests. */
  private static final class Resp {
    private final OutputStream out;
    private final InputStream in;

    Resp(Socket socket) throws IOException {
      this.out = socket.getOutputStream();
      this.in = new BufferedInputStream(socket.getInputStream());
    }

    Object call(String... args) throws IOException {
      List<byte[]> rest = new ArrayList<>();
      for (int i = 1; i < args.length; i++) {
        rest.add(args[i].getBytes(StandardCharsets.UTF_8));
      }
      send(rest, args[0]);
      Object reply = read();
      return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply;
    }

    byte[] callBytes(String... args) throws IOException {
      List<byte[]> rest = new ArrayList<>();
      for (int i = 1; i < args.length; i++) {
        rest.add(args[i].getBytes(StandardCharsets.UTF_8));
      }
      send(rest, args[0]);
      return (byte[]) read();
    }

    void send(List<byte[]> args, String command) throws IOException {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      buf.writeBytes(("*" + (args.size() + 1) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      bulk(buf, command.getBytes(StandardCharsets.UTF_8));
      for (byte[] arg : args) {
        bulk(buf, arg);
      }
      out.write(buf.toByteArray());
      out.flush();
    }

    private static void bulk(ByteArrayOutputStream buf, byte[] arg) {
      buf.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      buf.writeBytes(arg);
      buf.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    Object read() throws IOException {
      int type = in.read();
      String line = line();
      switch (type) {
        case '+':
          return line;
        case '-':
          throw new IllegalStateException("redis error: " + line);
        case ':':
          return Long.parseLong(line);
        case '$':
          {
            int len = Integer.parseInt(line);
            if (len < 0) {
              return null;
            }
            byte[] data = in.readNBytes(len);
            in.readNBytes(2);
            return data;
          }
        case '*':
          {
            int len = Integer.parseInt(line);
            if (len < 0) {
              return null;
            }
            List<Object> items = new ArrayList<>(len);
            for (int i = 0; i < len; i++) {
              Object item = read();
              items.add(item instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : item);
            }
            return items;
          }
        default:
          throw new IOException("unexpected reply type " + type);
      }
    }

    private String line() throws IOException {
      StringBuilder sb = new StringBuilder();
      int c;
      while ((c = in.read()) != '\r') {
        if (c < 0) {
          throw new IOException("connection closed");
        }
        sb.append((char) c);
      }
      in.read();
      return sb.toString();
    }
  }
}
