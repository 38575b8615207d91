package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * An opt-in watch of a {@code chash.yaml} file: polls it, and when its content changes, parses it
 * and {@linkplain ShardedCacheManager#reconfigure reconfigures} the manager (which logs what
 * changed and the share of keys that move). Polling (not a file-system watch service) because it
 * works the same on every file system, including the mounted config maps of containers, whose files
 * change by a symbolic link swap.
 *
 * <p>The rules of a poll:
 *
 * <ul>
 *   <li><b>Stable content only.</b> A content is applied only when two consecutive polls read the
 *       same bytes, so a file that is still being written (line by line, or truncated and then
 *       rewritten) is not applied half-written: a change takes effect one to two intervals after
 *       the file stops changing. The bytes read are the bytes parsed; the file is read once per
 *       poll.
 *   <li><b>Size cap.</b> A file of more than {@value #MAX_BYTES} bytes is not read (at most that
 *       many bytes plus one are ever read); it is logged once per change and ignored.
 *   <li><b>No lost change.</b> The watch compares what it reads with the content last applied. A
 *       file that fails validation is logged once, each problem with its file:line:column, and
 *       ignored: the manager keeps running as it was, until a valid content arrives. A content the
 *       manager cannot apply (its {@code reconfigure} throws, say a node cannot be created) is
 *       logged once per failure message and retried at each later poll.
 *   <li><b>Polling never stops.</b> Whatever a poll throws, an {@link Error} such as {@link
 *       OutOfMemoryError} included, is logged and the next poll runs.
 * </ul>
 *
 * <pre>{@code
 * ConfigWatch watch = ConfigWatch.start(manager, Path.of("/etc/app/chash.yaml"), Duration.ofSeconds(5));
 * ...
 * watch.close();
 * }</pre>
 *
 * <p>Thread-safe; one daemon thread per watch.
 */
public final class ConfigWatch implements AutoCloseable {
  /** The largest file read, in bytes (1 MiB); a larger one is logged and ignored. */
  public static final int MAX_BYTES = 1024 * 1024;

  private static final System.Logger LOG = System.getLogger(ConfigWatch.class.getName());

  private final ShardedCacheManager manager;
  private final UnaryOperator<ChashConfig> adjust;
  private final Path file;
  private final String name;
  private final ScheduledExecutorService poller;

  /** The content the manager runs; null when the file could not be read at the start. */
  private byte[] applied;

  /** The content the previous poll read; null when it read none (missing, unreadable, too big). */
  private byte[] previous;

  /** A stable content that failed validation; not parsed again. */
  private byte[] invalid;

  /** The content and message of the last problem logged, so it is logged once. */
  private byte[] loggedContent;

  private String loggedProblem;

  /** What keeps the file's content from running, for {@link #problem()}; null when nothing does. */
  private volatile String problem;

  private ConfigWatch(ShardedCacheManager manager, Path file, UnaryOperator<ChashConfig> adjust) {
    this.manager = manager;
    this.adjust = adjust;
    this.file = file;
    this.name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "chash-config-watch");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts polling {@code file} every {@code interval}; its content now is taken as the one the
   * manager already runs.
   *
   * @param manager the manager to reconfigure
   * @param file the configuration file the manager was built from
   * @param interval the time between two reads of the file
   * @return the running watch; close it to stop polling
   * @throws IllegalArgumentException if the interval is not positive
   */
  public static ConfigWatch start(ShardedCacheManager manager, Path file, Duration interval) {
    return start(manager, file, interval, UnaryOperator.identity());
  }

  /**
   * Starts polling {@code file} as {@link #start(ShardedCacheManager, Path, Duration)} does, and
   * applies {@code adjust} to each valid content before the manager runs it: for settings that live
   * outside the file (the Spring Boot starter's per-cache properties), which a change of the file
   * must keep. An {@code adjust} that throws makes the content one that cannot be applied.
   *
   * @param manager the manager to reconfigure
   * @param file the configuration file the manager was built from
   * @param interval the time between two reads of the file
   * @param adjust turns the file's configuration into the one the manager runs
   * @return the running watch; close it to stop polling
   * @throws IllegalArgumentException if the interval is not positive
   */
  public static ConfigWatch start(
      ShardedCacheManager manager,
      Path file,
      Duration interval,
      UnaryOperator<ChashConfig> adjust) {
    Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(adjust, "adjust");
    Objects.requireNonNull(file, "file");
    if (interval == null || interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("interval must be positive, was " + interval);
    }
    ConfigWatch watch = new ConfigWatch(manager, file, adjust);
    synchronized (watch) {
      watch.applied = watch.read();
      watch.previous = watch.applied;
    }
    watch.poller.scheduleWithFixedDelay(
        watch::poll, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    return watch;
  }

  /**
   * Reads the file and applies it if it changed and read the same at the previous poll; the
   * poller's task, callable by tests. Never throws: a scheduled task that throws is not run again.
   */
  synchronized void poll() {
    try {
      check();
    } catch (Throwable e) { // an Error too: the next poll must run
      try {
        if (firstReport(previous, "poll failed: " + e)) {
          LOG.log(Level.ERROR, "polling " + file + " failed; the next poll runs", e);
        }
      } catch (Throwable ignored) { // logging an OutOfMemoryError can fail in turn
      }
    }
  }

  private void check() {
    byte[] before = previous;
    previous = null; // a poll whose read fails reads nothing
    byte[] now = read();
    previous = now;
    if (now == null || !Arrays.equals(now, before)) {
      return; // nothing to read, or still changing
    }
    if (Arrays.equals(now, applied)) {
      invalid = null; // back to what runs: a later problem is a new one, logged again
      problem = null;
      forget();
      return;
    }
    if (Arrays.equals(now, invalid)) {
      return; // logged when it was first read
    }
    ChashConfig next;
    try {
      next = ChashConfigs.load(new ByteArrayInputStream(now), name);
    } catch (ConfigException e) {
      invalid = now;
      problem =
          "not valid; the running configuration stays: "
              + String.join("; ", e.problems().stream().map(Object::toString).toList());
      if (firstReport(now, "invalid")) {
        LOG.log(
            Level.WARNING,
            "{0} changed but is not valid; the running configuration stays:\n{1}",
            file,
            String.join("\n", e.problems().stream().map(Object::toString).toList()));
      }
      return;
    }
    try {
      manager.reconfigure(adjust.apply(next));
    } catch (RuntimeException e) {
      problem =
          "cannot be applied, retried at each poll; the running configuration stays: "
              + e.getMessage();
      if (firstReport(now, "not applied: " + e)) {
        LOG.log(
            Level.WARNING,
            "{0} changed but cannot be applied; the running configuration stays, and the change is"
                + " retried at each poll: {1}",
            file,
            e.getMessage());
      }
      return;
    }
    applied = now;
    invalid = null;
    problem = null;
    forget();
  }

  /**
   * Reads at most {@link #MAX_BYTES} bytes of the file.
   *
   * @return its content, or null if it is missing, cannot be read or is too large (logged once)
   */
  private byte[] read() {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      if (attributes.size() > MAX_BYTES) {
        tooLarge(attributes.size() + " bytes", attributes);
        return null;
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file)) {
        bytes = in.readNBytes(MAX_BYTES + 1);
      }
      if (bytes.length > MAX_BYTES) { // it grew after its size was read
        tooLarge("more than " + MAX_BYTES + " bytes", attributes);
        return null;
      }
      return bytes;
    } catch (NoSuchFileException e) {
      return null; // between the delete and the create of an editor's save
    } catch (IOException e) {
      if (!poller.isShutdown() && firstReport(null, "cannot read: " + e)) {
        LOG.log(Level.WARNING, "cannot read {0}: {1}", file, e.getMessage());
      }
      return null;
    }
  }

  private void tooLarge(String size, BasicFileAttributes attributes) {
    problem =
        "is "
            + size
            + ", more than the "
            + MAX_BYTES
            + " bytes a configuration may have; ignored,"
            + " the running configuration stays";
    // a change the watch cannot see by content: its size and time stand for it
    if (firstReport(
        null, "too large: " + attributes.size() + " " + attributes.lastModifiedTime())) {
      LOG.log(
          Level.WARNING,
          "{0} is {1}, more than the {2} bytes a configuration may have; ignored, the running"
              + " configuration stays",
          file,
          size,
          String.valueOf(MAX_BYTES));
    }
  }

  /** {@return whether this problem of this content differs from the last one logged} */
  private boolean firstReport(byte[] content, String problem) {
    if (problem.equals(loggedProblem) && Arrays.equals(content, loggedContent)) {
      return false;
    }
    loggedContent = content;
    loggedProblem = problem;
    return true;
  }

  private void forget() {
    loggedContent = null;
    loggedProblem = null;
  }

  /** {@return the file the watch reads} */
  public Path file() {
    return file;
  }

  /**
   * {@return why the file's latest stable content does not run, each configuration problem with its
   * file:line:column ({@code not valid; the running configuration stays: chash.yaml:6:13: ...}), or
   * null while the manager runs the file's content} Non-blocking; for health checks and endpoints.
   */
  public String problem() {
    return problem;
  }

  /** Stops polling. */
  @Override
  public void close() {
    poller.shutdownNow();
  }
}
