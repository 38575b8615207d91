package io.github.chash.it.demo;

import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Calls an annotated service with a realistic key mix (Zipf-distributed user ids, some renames that
 * evict) over the four local shards of {@code chash.yaml}, and prints per shard the keys, hits and
 * misses next to the ring's expected share.
 */
public final class Demo {
  /** Calls of {@code find}. */
  static final int CALLS = 400_000;

  /** Distinct user ids. */
  static final int USERS = 50_000;

  /** Zipf exponent: a few users are very popular, most are rare. */
  static final double ZIPF_EXPONENT = 1.0;

  /** One call in this many is a rename, which evicts. */
  static final int RENAME_EVERY = 50;

  private Demo() {}

  /**
   * Runs the demo on the class path's {@code chash.yaml}.
   *
   * @param args ignored
   * @throws IOException if {@code chash.yaml} cannot be read
   */
  public static void main(String[] args) throws IOException {
    run(CALLS, System.out);
  }

  /** Runs {@code calls} calls and prints the table. */
  static void run(int calls, PrintStream out) throws IOException {
    ChashConfig config;
    try (InputStream in = Demo.class.getResourceAsStream("/" + ChashConfigs.DEFAULT_NAME)) {
      config =
          ChashConfigs.parse(
              new String(in.readAllBytes(), StandardCharsets.UTF_8), ChashConfigs.DEFAULT_NAME);
    }
    try (ShardedCacheManager manager = ShardedCaches.create(config)) {
      ShardedCacheAspect.setManager(manager);
      try {
        UserDirectory directory = new UserDirectory();
        Zipf ids = new Zipf(USERS, ZIPF_EXPONENT, new SplittableRandom(42));
        Map<String, Integer> distinctKeys = new HashMap<>();
        boolean[] seen = new boolean[USERS + 1];
        Ring ring = manager.ring();
        int renames = 0;
        long start = System.nanoTime();
        for (int i = 1; i <= calls; i++) {
          int id = ids.next();
          if (i % RENAME_EVERY == 0) {
            directory.rename(id, "renamed");
            renames++;
          } else {
            directory.find(id);
          }
          if (!seen[id]) {
            seen[id] = true;
            distinctKeys.merge(ring.locate("users:" + id).id(), 1, Integer::sum);
          }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        print(
            out, config, manager, ring, distinctKeys, calls, renames, directory.lookups(), millis);
      } finally {
        ShardedCacheAspect.setManager(null);
      }
    }
  }

  private static void print(
      PrintStream out,
      ChashConfig config,
      ShardedCacheManager manager,
      Ring ring,
      Map<String, Integer> distinctKeys,
      int calls,
      int renames,
      long lookups,
      long millis) {
    int distinct = distinctKeys.values().stream().mapToInt(Integer::intValue).sum();
    out.printf(
        "chash demo: UserDirectory.find(id) with @ShardedCacheable(cache = \"users\", key = \"#id\")%n"
            + "ring %s/%s over %d local Caffeine shards; %,d calls, Zipf(s=%.1f) over %,d user ids"
            + " (%,d distinct), %,d renames evicting; %,d ms%n%n",
        config.ring().algorithm().configName(),
        config.ring().hash(),
        ring.size(),
        calls,
        ZIPF_EXPONENT,
        USERS,
        distinct,
        renames,
        millis);
    String row = "%-8s %6s %14s %10s %10s %10s %10s %9s%n";
    out.printf(
        row,
        "shard",
        "weight",
        "expected share",
        "keys seen",
        "key share",
        "hits",
        "misses",
        "hit rate");
    Map<String, Double> ownership = ring.ownership();
    Map<String, CacheStats> stats = manager.nodeStats();
    long hits = 0;
    long misses = 0;
    for (Node node : ring.nodes()) {
      CacheStats s = stats.get(node.id());
      int keys = distinctKeys.getOrDefault(node.id(), 0);
      hits += s.hitCount();
      misses += s.missCount();
      out.printf(
          row,
          node.id(),
          node.weight(),
          percent(ownership.get(node.id())),
          String.format("%,d", keys),
          percent(keys / (double) distinct),
          String.format("%,d", s.hitCount()),
          String.format("%,d", s.missCount()),
          percent(s.hitCount() / (double) Math.max(1, s.hitCount() + s.missCount())));
    }
    out.printf(
        row,
        "total",
        "",
        percent(ownership.values().stream().mapToDouble(Double::doubleValue).sum()),
        String.format("%,d", distinct),
        "",
        String.format("%,d", hits),
        String.format("%,d", misses),
        percent(hits / (double) Math.max(1, hits + misses)));
    out.printf(
        "%nthe method body ran %,d times (one per miss); expected share = the ring's exact"
            + " ownership of the hash space, key share = where the distinct keys went%n",
        lookups);
  }

  private static String percent(double share) {
    return String.format("%.1f%%", 100 * share);
  }

  /** Zipf-distributed ranks 1..n by inverse transform over the cumulative weights. */
  static final class Zipf {
    private final double[] cumulative;
    private final SplittableRandom random;

    Zipf(int n, double exponent, SplittableRandom random) {
      this.random = random;
      cumulative = new double[n];
      double sum = 0;
      for (int k = 1; k <= n; k++) {
        sum += 1 / Math.pow(k, exponent);
        cumulative[k - 1] = sum;
      }
      for (int i = 0; i < n; i++) {
        cumulative[i] /= sum;
      }
    }

    int next() {
      int i = Arrays.binarySearch(cumulative, random.nextDouble());
      return (i >= 0 ? i : -i - 1) + 1;
    }
  }
}
