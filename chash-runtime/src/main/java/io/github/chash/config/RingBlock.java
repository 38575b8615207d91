package io.github.chash.config;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.HashFunctions;
import io.github.chash.ring.RingSettings;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reads and checks {@code ring:}. */
final class RingBlock {
  static final List<String> KEYS = List.of("algorithm", "hash", "pointsPerWeight");

  /** The checked values; {@code hash} and {@code pointsPerWeight} null when not given. */
  record Values(Algorithm algorithm, String hash, Integer pointsPerWeight) {
    RingSettings toSettings() {
      RingSettings.Builder b = RingSettings.builder().algorithm(algorithm);
      if (hash != null && algorithm != Algorithm.KETAMA) {
        b.hash(hash);
      }
      if (pointsPerWeight != null) {
        b.pointsPerWeight(pointsPerWeight);
      }
      return b.build();
    }
  }

  private RingBlock() {}

  static Values read(Optional<YamlMap> block) {
    if (block.isEmpty()) {
      return new Values(Algorithm.RING, null, null);
    }
    YamlMap map = block.get().allowOnly(KEYS);
    Fields f = new Fields(map);
    List<String> algorithms = Arrays.stream(Algorithm.values()).map(Algorithm::configName).toList();
    Algorithm algorithm =
        Algorithm.fromConfigName(f.choice("algorithm", algorithms, Algorithm.RING.configName()));
    String hash = f.choice("hash", HashFunctions.names(), null);
    if (algorithm == Algorithm.KETAMA && hash != null && !hash.equals("md5")) {
      f.problem(
          "hash",
          "must be md5 for algorithm ketama (libketama hashes with MD5), was \"" + hash + "\"");
    }
    Integer points = null;
    if (f.has("pointsPerWeight")) {
      if (algorithm != Algorithm.RING && algorithm != Algorithm.KETAMA) {
        f.problem(
            "pointsPerWeight",
            "applies only to algorithms ring and ketama; remove it for " + algorithm.configName());
      } else {
        points =
            (int)
                f.integer(
                    "pointsPerWeight",
                    RingSettings.MIN_POINTS_PER_WEIGHT,
                    RingSettings.MAX_POINTS_PER_WEIGHT,
                    "an integer between "
                        + RingSettings.MIN_POINTS_PER_WEIGHT
                        + " and "
                        + RingSettings.MAX_POINTS_PER_WEIGHT,
                    RingSettings.DEFAULT_RING_POINTS);
      }
    }
    return new Values(algorithm, hash, points);
  }
}
