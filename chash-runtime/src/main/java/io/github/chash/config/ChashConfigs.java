package io.github.chash.config;

import java.nio.file.Path;

/** Reads and validates {@code chash.yaml}. */
public final class ChashConfigs {
  /** The class-path resource and default file name. */
  public static final String DEFAULT_NAME = "chash.yaml";

  private ChashConfigs() {}

  /**
   * Parses and validates a file.
   *
   * @throws ConfigException listing every problem with file:line:column
   */
  public static ChashConfig load(Path file) {
    throw new UnsupportedOperationException("TODO");
  }

  /**
   * Parses and validates YAML text; {@code sourceName} is the file name used in messages.
   *
   * @throws ConfigException listing every problem with file:line:column
   */
  public static ChashConfig parse(String yaml, String sourceName) {
    throw new UnsupportedOperationException("TODO");
  }
}
