package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads {@code migration:}; its rule is {@link MigrationConfig}'s. */
final class MigrationBlock {
  static final List<String> KEYS = List.of("window");

  private MigrationBlock() {}

  static MigrationConfig read(Optional<YamlMap> block) {
    MigrationConfig d = MigrationConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    // zero is a valid window (no migration)
    return new MigrationConfig(
        new Fields(block.get().allowOnly(KEYS)).durationOrZero("window", d.window()));
  }
}
