package io.github.chash.config;

import io.github.chash.internal.text.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/** Reads {@code migration:}; its rule is {@link MigrationConfig}'s. */
final class MigrationBlock {
  static final List<String> KEYS = List.of("window");

  private MigrationBlock() {}

  static MigrationConfig read(Optional<YamlMap> block) {
    MigrationConfig d = MigrationConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    YamlMap map = block.get().allowOnly(KEYS);
    Optional<Node> value = map.get("window");
    if (value.isEmpty()) {
      return d;
    }
    // zero is a valid window (no migration), so this is not Fields.duration, which wants > 0
    String text = Scalars.text(value.get());
    String problem =
        value.get() instanceof ScalarNode && text != null
            ? Durations.problem(text)
            : "must be " + Durations.FORM + ", was " + Scalars.describe(value.get());
    if (problem != null) {
      map.problems().at(value.get(), map.child("window") + " " + problem);
      return d;
    }
    Duration window = Durations.parse(text);
    return new MigrationConfig(window);
  }
}
