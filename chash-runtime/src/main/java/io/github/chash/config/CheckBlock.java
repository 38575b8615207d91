package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads and checks {@code check:}. */
final class CheckBlock {
  static final List<String> KEYS =
      List.of(
          "maxSkew",
          "sampleKeys",
          "keyPattern",
          "keysFile",
          "baseline",
          "maxMoved",
          "maxMovedOverIdeal");
  static final int MAX_SAMPLE_KEYS = CheckConfig.MAX_SAMPLE_KEYS;

  private CheckBlock() {}

  static CheckConfig read(Optional<YamlMap> block) {
    CheckConfig d = CheckConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    Fields f = new Fields(block.get().allowOnly(KEYS));
    Double maxSkew = f.decimal("maxSkew", "a number of at least 1.0", d.maxSkew());
    if (maxSkew < 1.0) {
      f.problem(
          "maxSkew",
          "must be at least 1.0 (a node's share / its fair share), was " + f.describe("maxSkew"));
    }
    int sampleKeys =
        (int)
            f.integer(
                "sampleKeys",
                1,
                MAX_SAMPLE_KEYS,
                "an integer between 1 and 100000000",
                d.sampleKeys());
    String keyPattern = f.string("keyPattern", d.keyPattern());
    if (f.has("keyPattern") && !keyPattern.contains("{n}")) {
      f.problem("keyPattern", "must contain {n}, was " + Scalars.quote(keyPattern));
    }
    String keysFile = f.string("keysFile", null);
    if (f.has("keysFile") && f.has("keyPattern")) {
      f.problem("keysFile", "and check.keyPattern exclude each other; keep one");
    }
    String baseline = f.string("baseline", null);
    Double maxMoved = f.decimal("maxMoved", "a fraction in (0, 1]", null);
    if (maxMoved != null && (maxMoved <= 0 || maxMoved > 1)) {
      f.problem("maxMoved", "must be a fraction in (0, 1], was " + f.describe("maxMoved"));
    }
    Double maxMovedOverIdeal = f.decimal("maxMovedOverIdeal", "a number of at least 1.0", null);
    if (maxMovedOverIdeal != null && maxMovedOverIdeal < 1) {
      f.problem(
          "maxMovedOverIdeal",
          "must be at least 1.0 (moved keys / the ideal minimum), was "
              + f.describe("maxMovedOverIdeal"));
    }
    return new CheckConfig(
        maxSkew, sampleKeys, keyPattern, keysFile, baseline, maxMoved, maxMovedOverIdeal);
  }
}
