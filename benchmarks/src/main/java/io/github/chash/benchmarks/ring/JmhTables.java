package io.github.chash.benchmarks.ring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns JMH CSV results ({@code -rf csv}) of {@link RingLookupBenchmark} and {@link
 * RingBuildBenchmark} into markdown tables, with the lookup targets as ratios from the same
 * run.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.github.chash.benchmarks.ring.JmhTables lookup.csv [build.csv]}.
 */
public final class JmhTables {
  private JmhTables() {}

  /** One JMH result row. */
  record Score(String method, int nodes, double score, double error, String unit) {}

  /**
   * Prints the tables for the given CSV files: lookup first, build optional; or, with {@code
   * --build build.csv}, the build table alone.
   */
  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      throw new IllegalArgumentException(
          "usage: JmhTables lookup.csv [build.csv] | --build build.csv");
    }
    StringBuilder out = new StringBuilder();
    if (args[0].equals("--build") && args.length == 2) {
      buildTable(out, read(Path.of(args[1])));
      System.out.print(out);
      return;
    }
    List<Score> lookup = read(Path.of(args[0]));
    lookupTable(out, lookup);
    lookupTargets(out, lookup);
    if (args.length > 1) {
      buildTable(out, read(Path.of(args[1])));
    }
    System.out.print(out);
  }

  static List<Score> read(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    List<Score> scores = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      if (f.length < 8) {
        throw new IllegalArgumentException(
            csv + ": expected a JMH csv row with a nodes parameter; was \"" + line + "\"");
      }
      String benchmark = unquote(f[0]);
      scores.add(
          new Score(
              benchmark.substring(benchmark.lastIndexOf('.') + 1),
              Integer.parseInt(unquote(f[7])),
              Double.parseDouble(f[4]),
              f[5].equals("NaN") ? Double.NaN : Double.parseDouble(f[5]),
              unquote(f[6])));
    }
    return scores;
  }

  private static String unquote(String s) {
    return s.startsWith("\"") ? s.substring(1, s.length() - 1) : s;
  }

  static void lookupTable(StringBuilder out, List<Score> scores) {
    TreeSet<Integer> sizes = new TreeSet<>();
    Map<String, Map<Integer, Score>> byMethod = new LinkedHashMap<>();
    for (Score s : scores) {
      sizes.add(s.nodes());
      byMethod.computeIfAbsent(s.method(), m -> new LinkedHashMap<>()).put(s.nodes(), s);
    }
    String unit = scores.isEmpty() ? "" : scores.get(0).unit();
    out.append("| lookup (").append(unit).append(") |");
    sizes.forEach(n -> out.append(' ').append(n).append(" nodes |"));
    out.append("\n|---|");
    sizes.forEach(n -> out.append("---:|"));
    out.append('\n');
    byMethod.forEach(
        (method, row) -> {
          out.append("| ").append(method).append(" |");
          for (int n : sizes) {
            Score s = row.get(n);
            out.append(
                s == null
                    ? " - |"
                    : String.format(Locale.ROOT, " %.1f ± %.1f |", s.score(), s.error()));
          }
          out.append('\n');
        });
    out.append('\n');
  }

  static void lookupTargets(StringBuilder out, List<Score> scores) {
    out.append("| lookup target | ratio | status |\n|---|---:|---|\n");
    ratio(out, scores, "chashRing", "spymemcachedKetama", 1000, 0.1);
    ratio(out, scores, "chashRing", "hash4jJumpBackHash", 1000, 2.0);
    ratio(out, scores, "chashRing", "hash4jJumpBackHash", 10, 2.0);
    ratio(out, scores, "chashRingManyKeys", "hash4jJumpBackHashManyKeys", 1000, 4.0);
    for (int n : new int[] {10, 100, 1000}) {
      ratio(out, scores, "chashMaglev", "hash4jJumpBackHash", n, 1.5);
    }
    for (int n : new int[] {10, 100, 1000}) {
      ratio(out, scores, "chashKetama", "spymemcachedKetama", n, 0.5);
    }
    out.append('\n');
  }

  private static void ratio(
      StringBuilder out, List<Score> scores, String ours, String peer, int nodes, double limit) {
    Score a = find(scores, ours, nodes);
    Score b = find(scores, peer, nodes);
    String what =
        String.format(Locale.ROOT, "%s / %s at %d nodes <= %sx", ours, peer, nodes, limit);
    if (a == null || b == null) {
      out.append("| ").append(what).append(" | - | not measured |\n");
      return;
    }
    double r = a.score() / b.score();
    out.append(
        String.format(
            Locale.ROOT, "| %s | %.3f | %s |%n", what, r, r <= limit ? "met" : "**missed**"));
  }

  private static Score find(List<Score> scores, String method, int nodes) {
    for (Score s : scores) {
      if (s.method().equals(method) && s.nodes() == nodes) {
        return s;
      }
    }
    return null;
  }

  static void buildTable(StringBuilder out, List<Score> scores) {
    out.append("| build | nodes | time |\n|---|---:|---:|\n");
    for (Score s : scores) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.1f ± %.1f %s |%n",
              s.method(),
              s.nodes(),
              s.score(),
              s.error(),
              s.unit()));
    }
    out.append('\n');
  }
}
