package io.github.chash.spring.boot;

import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;
import io.github.chash.internal.text.Utf8;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * Reads {@code chash.yaml} from a Spring resource location ({@code chash.config}). A resource that
 * is a file (a {@code file:} location, or a class path resource in a directory) goes through {@link
 * ChashConfigs#load}; one inside a jar (an application's fat jar) is read as bytes and parsed.
 * Problems are {@link ConfigException}s naming the file. {@link #watch} polls the same location for
 * changes ({@code chash.watch}), which must then be a file.
 */
final class ConfigResources {
  /** Larger files are refused before parsing (the parser's own limit is 2 Mi characters). */
  static final int MAX_BYTES = 8 * 1024 * 1024;

  private ConfigResources() {}

  static ChashConfig load(ResourceLoader loader, String location) {
    Resource resource = loader.getResource(location);
    String name = resource.getFilename() == null ? location : resource.getFilename();
    if (!resource.exists()) {
      throw problem(
          name,
          "not found: "
              + location
              + " (property chash.config; by default chash.yaml on the class path, from"
              + " src/main/resources)",
          null);
    }
    try {
      if (resource.isFile()) {
        return ChashConfigs.load(resource.getFile().toPath());
      }
      byte[] bytes;
      try (InputStream in = resource.getInputStream()) {
        bytes = in.readNBytes(MAX_BYTES + 1);
      }
      if (bytes.length > MAX_BYTES) {
        throw problem(name, "file is larger than " + MAX_BYTES + " bytes: " + location, null);
      }
      return ChashConfigs.parse(utf8(bytes, name), name);
    } catch (IOException e) {
      throw problem(name, "cannot read " + location + ": " + e, e);
    }
  }

  /**
   * Starts chash's {@link ConfigWatch} on the file at {@code location}.
   *
   * @param interval {@code chash.watch}
   * @throws IllegalStateException if the interval is not positive, or the location is not a file (a
   *     class path resource inside a jar)
   */
  static ConfigWatch watch(
      ShardedCacheManager manager,
      ResourceLoader loader,
      String location,
      Duration interval,
      UnaryOperator<ChashConfig> adjust) {
    if (interval == null || interval.isZero() || interval.isNegative()) {
      throw new IllegalStateException(
          "chash.watch must be a positive duration such as 5s, was " + interval);
    }
    Resource resource = loader.getResource(location);
    Path file;
    try {
      if (!resource.isFile()) {
        throw new IllegalStateException(notAFile(location, resource.getDescription()));
      }
      file = resource.getFile().toPath();
    } catch (IOException e) {
      throw new IllegalStateException(notAFile(location, e.toString()), e);
    }
    return ConfigWatch.start(manager, file, interval, adjust);
  }

  private static String notAFile(String location, String what) {
    return "chash.watch needs chash.config to be a file it can read again, but "
        + location
        + " is not one ("
        + what
        + "); set chash.config to a file location such as file:/etc/app/chash.yaml, or remove"
        + " chash.watch";
  }

  private static String utf8(byte[] bytes, String name) {
    try {
      return Utf8.decodeStrictly(bytes);
    } catch (CharacterCodingException e) {
      throw problem(name, "file is not valid UTF-8", e);
    }
  }

  private static ConfigException problem(String name, String message, Throwable cause) {
    return new ConfigException(List.of(new ConfigProblem(name, 1, 1, message)), cause);
  }
}
