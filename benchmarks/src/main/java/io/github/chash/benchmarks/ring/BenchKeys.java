package io.github.chash.benchmarks.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Deterministic key and node-id sets shared by every benchmark and report. */
final class BenchKeys {
  /** Seed of every key set, so all runs and all contenders see the same keys. */
  static final long SEED = 0x5EEDL;

  private BenchKeys() {}

  /** {@code count} keys shaped like {@code "user:123456789"}, from the fixed seed. */
  static String[] keys(int count) {
    SplittableRandom random = new SplittableRandom(SEED);
    String[] keys = new String[count];
    for (int i = 0; i < count; i++) {
      keys[i] = "user:" + random.nextInt(1_000_000_000);
    }
    return keys;
  }

  /**
   * Node id {@code i} as {@code "10.0.x.y:11211"}: a {@code host:port} id, so that chash's ketama
   * and spymemcached name their points the same way (spymemcached names a node by its address).
   */
  static String nodeId(int i) {
    return "10." + (i >>> 16 & 0xff) + "." + (i >>> 8 & 0xff) + "." + (i & 0xff) + ":11211";
  }

  /** Ids of nodes {@code 0 .. count-1}. */
  static List<String> nodeIds(int count) {
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(nodeId(i));
    }
    return ids;
  }
}
