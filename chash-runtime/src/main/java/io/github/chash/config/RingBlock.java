package io.github.chash.config;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.HashFunctions;
import io.github.chash.ring.KetamaCompat;
import io.github.chash.ring.RingSettings;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reads and checks {@code ring:}. */
final class RingBlock {
  static final List<String> KEYS =
      List.of("algorithm", "hash", "pointsPerWeight", "compat", "keyTags");

  /**
   * The checked values; {@code hash}, {@code pointsPerWeight} and {@code compat} null when not
   * given.
   */
  record Values(
      Algorithm algorithm,
      String hash,
      Integer pointsPerWeight,
      KetamaCompat compat,
      boolean keyTags) {
    RingSettings toSettings() {
      RingSettings.Builder b = RingSettings.builder().algorithm(algorithm).keyTags(keyTags);
      if (hash != null && algorithm != Algorithm.KETAMA) {
        b.hash(hash);
      }
      if (pointsPerWeight != null) {
        b.pointsPerWeight(pointsPerWeight);
      }
      if (compat != null) {
        b.compat(compat);
      }
      return b.build();
    }
  }

  private RingBlock() {}

  static Values read(Optional<YamlMap> block) {
    if (block.isEmpty()) {
      return new Values(Algorithm.RING, null, null, null, false);
    }
    YamlMap map = block.get().allowOnly(KEYS);
    Fields f = new Fields(map);
    List<String> algorithms = Arrays.stream(Algorithm.values()).map(Algorithm::configName).toList();
    Algorithm algorithm =
        Algorithm.fromConfigName(f.choice("algorithm", algorithms, Algorithm.RING.configName()));
    KetamaCompat compat = null;
    if (f.has("compat")) {
      if (algorithm != Algorithm.KETAMA) {
        f.problem(
            "compat", "applies only to algorithm ketama; remove it for " + algorithm.configName());
      } else {
        List<String> names =
            Arrays.stream(KetamaCompat.values()).map(KetamaCompat::configName).toList();
        String name = f.choice("compat", names, null);
        compat = name == null ? null : KetamaCompat.fromConfigName(name);
      }
    }
    String hash = readHash(f, algorithm);
    Integer points = readPoints(f, algorithm, compat);
    boolean keyTags = false;
    if (f.has("keyTags")) {
      if (algorithm != Algorithm.JEDIS) {
        f.problem(
            "keyTags", "applies only to algorithm jedis; remove it for " + algorithm.configName());
      } else {
        keyTags = Boolean.parseBoolean(f.choice("keyTags", List.of("true", "false"), "false"));
      }
    }
    return new Values(algorithm, hash, points, compat, keyTags);
  }

  private static String readHash(Fields f, Algorithm algorithm) {
    if (algorithm == Algorithm.JEDIS && f.has("hash")) {
      f.problem(
          "hash",
          "does not apply to algorithm jedis (it hashes with MurmurHash64A, seed 0x1234ABCD, as"
              + " Jedis does); remove it");
      return null;
    }
    String hash = f.choice("hash", HashFunctions.names(), null);
    if (algorithm == Algorithm.KETAMA && hash != null && !hash.equals("md5")) {
      f.problem(
          "hash",
          "must be md5 for algorithm ketama (libketama hashes with MD5), was \"" + hash + "\"");
    }
    return hash;
  }

  private static Integer readPoints(Fields f, Algorithm algorithm, KetamaCompat compat) {
    if (!f.has("pointsPerWeight")) {
      return null;
    }
    if (algorithm != Algorithm.RING && algorithm != Algorithm.KETAMA) {
      f.problem(
          "pointsPerWeight",
          "applies only to algorithms ring and ketama; remove it for " + algorithm.configName());
      return null;
    }
    if (compat != null && !compat.hasPointsPerWeight()) {
      f.problem(
          "pointsPerWeight",
          "does not apply to ketama compat "
              + compat.configName()
              + " (it always hashes 160 points per server of average weight); remove it");
      return null;
    }
    return (int)
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
