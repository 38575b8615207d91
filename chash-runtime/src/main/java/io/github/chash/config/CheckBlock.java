package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads {@code check:}; its rules are {@link CheckConfig}'s. */
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

  private CheckBlock() {}

  static CheckConfig read(Optional<YamlMap> block) {
    CheckConfig d = CheckConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    Fields f = new Fields(block.get().allowOnly(KEYS));
    double maxSkew = f.decimal("maxSkew", "a number of at least 1.0", d.maxSkew());
    maxSkew = f.check("maxSkew", CheckConfig.maxSkewProblem(maxSkew), maxSkew, d.maxSkew());
    int sampleKeys = (int) f.integer("sampleKeys", CheckConfig.SAMPLE_KEYS, d.sampleKeys());
    String keyPattern = f.string("keyPattern", d.keyPattern());
    keyPattern =
        f.check(
            "keyPattern", CheckConfig.keyPatternProblem(keyPattern), keyPattern, d.keyPattern());
    String keysFile = f.string("keysFile", null);
    if (f.has("keysFile") && f.has("keyPattern")) {
      f.problem("keysFile", "and check.keyPattern exclude each other; keep one");
    }
    String baseline = f.string("baseline", null);
    Double maxMoved = f.decimal("maxMoved", "a fraction in (0, 1]", null);
    if (maxMoved != null) {
      maxMoved = f.check("maxMoved", CheckConfig.maxMovedProblem(maxMoved), maxMoved, null);
    }
    Double maxMovedOverIdeal = f.decimal("maxMovedOverIdeal", "a number of at least 1.0", null);
    if (maxMovedOverIdeal != null) {
      maxMovedOverIdeal =
          f.check(
              "maxMovedOverIdeal",
              CheckConfig.maxMovedOverIdealProblem(maxMovedOverIdeal),
              maxMovedOverIdeal,
              null);
    }
    return new CheckConfig(
        maxSkew, sampleKeys, keyPattern, keysFile, baseline, maxMoved, maxMovedOverIdeal);
  }
}
