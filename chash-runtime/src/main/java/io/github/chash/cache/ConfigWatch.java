package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.ConfigException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An opt-in watch of a {@code chash.yaml} file: polls it, and when its content changes, parses it
 * and {@linkplain ShardedCacheManager#reconfigure reconfigures} the manager (which logs what
 * changed and the share of keys that move). A file that fails validation is logged, each problem
 * with its file:line:column, and ignored: the manager keeps running as it was. Polling (not a
 * file-system watch service) because it works the same on every file system, including the mounted
 * config maps of containers, whose files change by a symbolic link swap.
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
  private static final System.Logger LOG = System.getLogger(ConfigWatch.class.getName());

  private final ShardedCacheManager manager;
  private final Path file;
  private final ScheduledExecutorService poller;
  private byte[] seen;

  private ConfigWatch(ShardedCacheManager manager, Path file) {
    this.manager = manager;
    this.file = file;
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
    Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(file, "file");
    if (interval == null || interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("interval must be positive, was " + interval);
    }
    ConfigWatch watch = new ConfigWatch(manager, file);
    watch.seen = watch.read();
    watch.poller.scheduleWithFixedDelay(
        watch::poll, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    return watch;
  }

  /** Reads the file and applies it if it changed; the poller's task, callable by tests. */
  synchronized void poll() {
    byte[] now = read();
    if (now == null || Arrays.equals(now, seen)) {
      return;
    }
    seen = now;
    ChashConfig next;
    try {
      next = ChashConfigs.load(file);
    } catch (ConfigException e) {
      LOG.log(
          Level.WARNING,
          "{0} changed but is not valid; the running configuration stays:\n{1}",
          file,
          String.join("\n", e.problems().stream().map(Object::toString).toList()));
      return;
    }
    try {
      manager.reconfigure(next);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "{0} changed but cannot be applied; the running configuration stays: {1}",
          file,
          e.getMessage());
    }
  }

  private byte[] read() {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null; // between the delete and the create of an editor's save
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot read {0}: {1}", file, e.getMessage());
      return null;
    }
  }

  /** Stops polling. */
  @Override
  public void close() {
    poller.shutdownNow();
  }
}
