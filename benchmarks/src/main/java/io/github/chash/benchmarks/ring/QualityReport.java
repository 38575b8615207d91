package io.github.chash.benchmarks.ring;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Balance and movement of every contender on one key set, printed as a markdown table.
 *
 * <ul>
 *   <li>Load at 100 equal nodes as peak/mean and min/mean: exact (from {@code ownership()}) where
 *       the algorithm has exact shares, and sampled on 1,000,000 keys for everyone (sampling alone
 *       puts peak/mean near 1.03 at 10,000 keys per node).
 *   <li>Fraction of keys moved when an 11th node joins 10 (ideal 1/11) and when the last of 100
 *       leaves (ideal 1/100). The last node is the one that leaves because jump-style algorithms
 *       (chash jump, Guava, hash4j) can only shrink from the end.
 *   <li>Stray moves: keys that moved between nodes that were there before and after (a joining node
 *       should only take keys, a leaving node should only give its own).
 * </ul>
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.github.chash.benchmarks.ring.QualityReport}.
 */
public final class QualityReport {
  static final int KEY_COUNT = 1_000_000;
  static final int BALANCE_NODES = 100;
  static final double JOIN_IDEAL = 1.0 / 11;
  static final double LEAVE_IDEAL = 1.0 / BALANCE_NODES;

  private QualityReport() {}

  /** One contender's numbers. */
  record Result(
      String name,
      double exactPeak,
      double exactMin,
      double sampledPeak,
      double sampledMin,
      double joinMoved,
      long joinStray,
      double leaveMoved,
      long leaveStray) {
    boolean hasExact() {
      return !Double.isNaN(exactPeak);
    }
  }

  /** Prints the quality table and the quality targets. */
  public static void main(String[] args) {
    String[] keys = BenchKeys.keys(KEY_COUNT);
    List<Result> results = new ArrayList<>();
    for (Contender contender : Contender.all()) {
      results.add(measure(contender, keys));
    }
    System.out.print(table(results));
    System.out.print(targets(results));
  }

  static Result measure(Contender contender, String[] keys) {
    List<String> ids100 = BenchKeys.nodeIds(BALANCE_NODES);
    Contender.Router r100 = contender.build(ids100);
    String[] owner100 = new String[keys.length];
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < keys.length; i++) {
      owner100[i] = r100.route(keys[i]);
      counts.merge(owner100[i], 1, Integer::sum);
    }
    double mean = (double) keys.length / BALANCE_NODES;
    double sampledPeak =
        counts.values().stream().mapToInt(Integer::intValue).max().orElse(0) / mean;
    // A node that got no key at all still counts as min 0.
    double sampledMin =
        counts.size() < BALANCE_NODES
            ? 0
            : counts.values().stream().mapToInt(Integer::intValue).min().orElse(0) / mean;

    double exactPeak = Double.NaN;
    double exactMin = Double.NaN;
    Map<String, Double> shares = r100.exactShares();
    if (shares != null) {
      double fair = 1.0 / BALANCE_NODES;
      exactPeak = shares.values().stream().mapToDouble(Double::doubleValue).max().orElse(0) / fair;
      exactMin = shares.values().stream().mapToDouble(Double::doubleValue).min().orElse(0) / fair;
    }

    // Leave: the last of 100 nodes goes away.
    String leaving = ids100.get(BALANCE_NODES - 1);
    Contender.Router r99 = contender.build(ids100.subList(0, BALANCE_NODES - 1));
    long leaveMoved = 0;
    long leaveStray = 0;
    for (int i = 0; i < keys.length; i++) {
      String after = r99.route(keys[i]);
      if (!after.equals(owner100[i])) {
        leaveMoved++;
        if (!owner100[i].equals(leaving)) {
          leaveStray++;
        }
      }
    }

    // Join: an 11th node joins 10.
    List<String> ids11 = BenchKeys.nodeIds(11);
    String joining = ids11.get(10);
    Contender.Router r10 = contender.build(ids11.subList(0, 10));
    Contender.Router r11 = contender.build(ids11);
    long joinMoved = 0;
    long joinStray = 0;
    for (String key : keys) {
      String before = r10.route(key);
      String after = r11.route(key);
      if (!after.equals(before)) {
        joinMoved++;
        if (!after.equals(joining)) {
          joinStray++;
        }
      }
    }
    return new Result(
        contender.name(),
        exactPeak,
        exactMin,
        sampledPeak,
        sampledMin,
        (double) joinMoved / keys.length,
        joinStray,
        (double) leaveMoved / keys.length,
        leaveStray);
  }

  static String table(List<Result> results) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "| algorithm | exact peak/mean | exact min/mean | sampled peak/mean | sampled min/mean"
                + " | moved on join 10->11 (ideal %.4f) | join stray | moved on leave 100->99"
                + " (ideal %.4f) | leave stray |%n",
            JOIN_IDEAL,
            LEAVE_IDEAL));
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Result r : results) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %.4f | %.4f | %.4f (%.3fx) | %,d | %.4f (%.3fx) | %,d |%n",
              r.name(),
              r.hasExact() ? String.format(Locale.ROOT, "%.4f", r.exactPeak()) : "n/a",
              r.hasExact() ? String.format(Locale.ROOT, "%.4f", r.exactMin()) : "n/a",
              r.sampledPeak(),
              r.sampledMin(),
              r.joinMoved(),
              r.joinMoved() / JOIN_IDEAL,
              r.joinStray(),
              r.leaveMoved(),
              r.leaveMoved() / LEAVE_IDEAL,
              r.leaveStray()));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%nSame %,d keys (\"user:<n>\", seed %d) for every row; loads at %d equal nodes. "
                + "\"n/a\": the algorithm has no exact shares, use the sampled columns. "
                + "Stray = keys moved between nodes present before and after.%n%n",
            KEY_COUNT,
            BenchKeys.SEED,
            BALANCE_NODES));
    return out.toString();
  }

  static String targets(List<Result> results) {
    Map<String, Result> byName = new HashMap<>();
    results.forEach(r -> byName.put(r.name(), r));
    StringBuilder out =
        new StringBuilder("| quality target | measured | status |\n|---|---:|---|\n");
    Result ring = byName.get("chash ring (xxh3)");
    Result maglev = byName.get("chash maglev");
    target(out, "ring exact peak/mean at 100 nodes <= 1.10", ring.exactPeak(), 1.10);
    target(out, "maglev exact peak/mean at 100 nodes <= 1.01", maglev.exactPeak(), 1.01);
    for (String name : List.of("chash ring (xxh3)", "chash ketama", "chash rendezvous")) {
      Result r = byName.get(name);
      target(out, name + ": moved on join <= 1.05x ideal 1/11", r.joinMoved() / JOIN_IDEAL, 1.05);
      count(out, name + ": keys moved between surviving nodes on leave = 0", r.leaveStray());
    }
    return out.toString();
  }

  private static void target(StringBuilder out, String what, double measured, double limit) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %.4f | %s |%n",
            what,
            measured,
            measured <= limit ? "met" : "**missed**"));
  }

  private static void count(StringBuilder out, String what, long measured) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %,d | %s |%n",
            what,
            measured,
            measured == 0 ? "met" : "**missed**"));
  }
}
