package io.github.chash.memcached;

import io.github.chash.cache.ServerProcesses;
import io.github.chash.cache.TestServer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code memcached} process for tests, bound to 127.0.0.1 on a free port (never 11211), TCP
 * only, 64 MB, logging to a temporary file.
 *
 * <p>Supports {@code kill -9} ({@link #kill()}), restart on the same port ({@link #restart()}) and
 * freezing ({@link #pause()}, SIGSTOP; {@link #resume()}, SIGCONT). Every wait is bounded. A JVM
 * shutdown hook kills servers a test forgot to close. If {@code memcached} is not on the PATH,
 * {@link #start()} skips the test, saying how to install it ({@link
 * ServerProcesses#requireOnPath}). Not thread-safe: one test drives it.
 */
public final class MemcachedServerProcess implements TestServer, AutoCloseable {
  private static final String LOOPBACK = ServerProcesses.LOOPBACK;
  private static final int RESERVED_PORT = 11211;
  private static final int BIND_ATTEMPTS = 8;
  private static final Duration STARTUP = Duration.ofSeconds(15);

  private final Path log;
  private final int port;
  private final String maxItemSize;
  private Process process;
  private final Thread reaper = new Thread(this::destroyQuietly, "memcached-test-server-reaper");

  private MemcachedServerProcess(Path log, int port, String maxItemSize) {
    this.log = log;
    this.port = port;
    this.maxItemSize = maxItemSize;
  }

  /** Starts a server with memcached's default item size limit (1 MB). */
  public static MemcachedServerProcess start() {
    return start(null);
  }

  /**
   * Starts a server; {@code maxItemSize} is its {@code -I} ({@code 2m}), null for the default.
   *
   * @throws IllegalStateException if no server came up after several free ports were tried
   */
  public static MemcachedServerProcess start(String maxItemSize) {
    ServerProcesses.requireOnPath("memcached", "memcached");
    Path log;
    try {
      log = Files.createTempFile("chash-memcached-", ".log");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    IllegalStateException last = null;
    for (int attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
      MemcachedServerProcess server =
          new MemcachedServerProcess(log, ServerProcesses.freePort(RESERVED_PORT), maxItemSize);
      try {
        server.launch();
        Runtime.getRuntime().addShutdownHook(server.reaper);
        return server;
      } catch (IllegalStateException bindRace) {
        last = bindRace; // another process took the port between our probe and the bind
      }
    }
    throw new IllegalStateException(
        "could not start memcached after " + BIND_ATTEMPTS + " ports", last);
  }

  /** The TCP port, stable across {@link #restart()}. */
  public int port() {
    return port;
  }

  /** {@code memcached://127.0.0.1:PORT}. */
  public String uri() {
    return "memcached://" + LOOPBACK + ":" + port;
  }

  /**
   * {@code 127.0.0.1:PORT}, the node id spymemcached's ketama hashes as {@code /127.0.0.1:PORT}.
   */
  public String hostPort() {
    return LOOPBACK + ":" + port;
  }

  /** The process id of the running server. */
  public long pid() {
    return process.pid();
  }

  /** Whether the process is alive. */
  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** {@code kill -9}: the server dies at once, with all its data. */
  public void kill() {
    ServerProcesses.kill(process);
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
  public void pause() {
    ServerProcesses.signal(process, "-STOP");
  }

  /** Thaws a {@link #pause() paused} server (SIGCONT). */
  public void resume() {
    ServerProcesses.signal(process, "-CONT");
  }

  /**
   * Starts a fresh, empty server on the same port after {@link #kill()}.
   *
   * @throws IllegalStateException if it is still running or does not come up
   */
  public void restart() {
    if (isRunning()) {
      throw new IllegalStateException("memcached on port " + port + " is still running");
    }
    launch();
  }

  /** {@code flush_all}: empties the server. */
  public void flushAll() {
    String reply = line("flush_all");
    if (!reply.equals("OK")) {
      throw new IllegalStateException("flush_all answered " + reply);
    }
  }

  /** The raw bytes stored at a key, or null. */
  public byte[] getBytes(String key) {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      out.write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String header = readLine(in);
      if (header.equals("END")) {
        return null;
      }
      String[] parts = header.split(" ");
      if (!parts[0].equals("VALUE")) {
        throw new IllegalStateException("get " + key + " answered " + header);
      }
      byte[] data = in.readNBytes(Integer.parseInt(parts[3]));
      readLine(in); // the data's \r\n
      readLine(in); // END
      return data;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a key exists. */
  public boolean exists(String key) {
    return getBytes(key) != null;
  }

  /** Stores raw bytes at a key, without expiry (flags 0). */
  public void setBytes(String key, byte[] value) {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      buf.writeBytes(
          ("set " + key + " 0 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      buf.writeBytes(value);
      buf.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
      out.write(buf.toByteArray());
      out.flush();
      String reply = readLine(in);
      if (!reply.equals("STORED")) {
        throw new IllegalStateException("set " + key + " answered " + reply);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The meta-protocol {@code mg key t} of a key: its remaining TTL in seconds as the server counts
   * it ({@code -1}: none), or null when the key is absent.
   */
  public Long ttlSeconds(String key) {
    String reply = line("mg " + key + " t");
    if (reply.equals("EN")) {
      return null;
    }
    for (String part : reply.split(" ")) {
      if (part.startsWith("t")) {
        return Long.parseLong(part.substring(1));
      }
    }
    throw new IllegalStateException("mg " + key + " t answered " + reply);
  }

  /** Sends one text-protocol command line and returns the first reply line. */
  public String line(String command) {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return readLine(new BufferedInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException("memcached on port " + port + ": " + command + " failed", e);
    }
  }

  /** The server's log so far (for failure messages). */
  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Kills the server and deletes its log. Idempotent. */
  @Override
  public void close() {
    destroyQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // a temp file left behind is harmless
    }
  }

  @Override
  public String toString() {
    return "memcached[" + LOOPBACK + ":" + port + (isRunning() ? ", running]" : ", stopped]");
  }

  private void launch() {
    if (port == RESERVED_PORT) {
      throw new IllegalStateException("refusing to use port " + RESERVED_PORT);
    }
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "memcached",
                "-l",
                LOOPBACK,
                "-p",
                Integer.toString(port),
                "-U",
                "0",
                "-m",
                "64",
                "-t",
                "2",
                "-c",
                "256"));
    if (maxItemSize != null) {
      cmd.add("-I");
      cmd.add(maxItemSize);
    }
    if ("root".equals(System.getProperty("user.name"))) {
      cmd.add("-u");
      cmd.add("root"); // memcached refuses to run as root unless told to stay root
    }
    ProcessBuilder builder =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not run memcached", e);
    }
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("memcached exited on port " + port + ": " + log());
      }
      if (answersVersion()) {
        return;
      }
      ServerProcesses.sleep(20);
    }
    destroyQuietly();
    throw new IllegalStateException("memcached did not answer on port " + port + ": " + log());
  }

  private boolean answersVersion() {
    try (Socket socket = connect()) {
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("version\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return readLine(socket.getInputStream()).startsWith("VERSION ");
    } catch (IOException notYet) {
      return false;
    }
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port), 1000);
    socket.setSoTimeout(5000);
    return socket;
  }

  private static String readLine(InputStream in) throws IOException {
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

  private void destroyQuietly() {
    ServerProcesses.kill(process);
  }
}
