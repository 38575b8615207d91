package io.github.chash.memcached;

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
public final class MemcachedServerProcess extends LoopbackServer {
  private static final String LOOPBACK = ServerProcesses.LOOPBACK;
  private static final int RESERVED_PORT = 11211;
  private final Path log;
  private final String maxItemSize;
  private final boolean noCas;

  private MemcachedServerProcess(Path log, int port, String maxItemSize, boolean noCas) {
    super("memcached", RESERVED_PORT, port);
    this.log = log;
    this.maxItemSize = maxItemSize;
    this.noCas = noCas;
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
    return start(maxItemSize, false);
  }

  /** Starts a server that keeps no CAS uniques ({@code memcached -C}). */
  public static MemcachedServerProcess startWithoutCas() {
    return start(null, true);
  }

  private static MemcachedServerProcess start(String maxItemSize, boolean noCas) {
    ServerProcesses.requireOnPath("memcached", "memcached");
    Path log;
    try {
      log = Files.createTempFile("chash-memcached-", ".log");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return startOnFreePort(
        "memcached",
        RESERVED_PORT,
        port -> new MemcachedServerProcess(log, port, maxItemSize, noCas),
        () -> {});
  }

  /** {@code memcached://127.0.0.1:PORT}. */
  @Override
  public String uri() {
    return "memcached://" + LOOPBACK + ":" + port();
  }

  /**
   * {@code 127.0.0.1:PORT}, the node id spymemcached's ketama hashes as {@code /127.0.0.1:PORT}.
   */
  public String hostPort() {
    return LOOPBACK + ":" + port();
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
   * Stores {@code count} items of junk (keys of their own per {@code batch}), each with a key
   * {@code keyLength} characters long and a value {@code valueLength} bytes long, so that they fall
   * in the slab class of items of that size (pipelined with {@code noreply}, then a {@code version}
   * awaited): at the server's memory limit, it evicts that class's least recently used items, as a
   * production cache does.
   */
  public void fillWithJunk(int batch, int count, int keyLength, int valueLength) {
    try (Socket socket = connect()) {
      OutputStream out = new java.io.BufferedOutputStream(socket.getOutputStream(), 1 << 16);
      byte[] value = new byte[valueLength];
      java.util.Arrays.fill(value, (byte) 'x');
      for (int i = 0; i < count; i++) {
        String number = batch + "_" + i;
        String key = "junk:" + "0".repeat(Math.max(0, keyLength - 5 - number.length())) + number;
        out.write(
            ("set " + key + " 0 0 " + valueLength + " noreply\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(value);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.write("version\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String reply = readLine(new BufferedInputStream(socket.getInputStream()));
      if (!reply.startsWith("VERSION")) {
        throw new IllegalStateException("junk sets answered " + reply);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("memcached on port " + port() + ": junk sets failed", e);
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

  /**
   * One value of the server's {@code stats} (such as {@code curr_connections}, which counts the
   * connection that asks, and the listening socket).
   *
   * @throws IllegalStateException if the server reports no such statistic
   */
  public long stat(String name) {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write("stats\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      Long value = null;
      for (String line = readLine(in); !line.equals("END"); line = readLine(in)) {
        String[] parts = line.split(" ");
        if (parts.length == 3 && parts[0].equals("STAT") && parts[1].equals(name)) {
          value = Long.parseLong(parts[2]);
        }
      }
      if (value == null) {
        throw new IllegalStateException("memcached reports no statistic " + name);
      }
      return value;
    } catch (IOException e) {
      throw new UncheckedIOException("memcached on port " + port() + ": stats failed", e);
    }
  }

  /** Sends one text-protocol command line and returns the first reply line. */
  public String line(String command) {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return readLine(new BufferedInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException("memcached on port " + port() + ": " + command + " failed", e);
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

  @Override
  protected void deleteFiles() {
    try {
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // a temp file left behind is harmless
    }
  }

  @Override
  protected ProcessBuilder command() {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "memcached",
                "-l",
                LOOPBACK,
                "-p",
                Integer.toString(port()),
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
    if (noCas) {
      cmd.add("-C");
    }
    if ("root".equals(System.getProperty("user.name"))) {
      cmd.add("-u");
      cmd.add("root"); // memcached refuses to run as root unless told to stay root
    }
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
  }

  /** Whether it answers {@code version}. */
  @Override
  protected boolean answers() {
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
}
