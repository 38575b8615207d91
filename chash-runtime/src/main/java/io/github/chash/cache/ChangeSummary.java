package io.github.chash.cache;

import io.github.chash.analysis.BaselineComparison;
import io.github.chash.analysis.BaselineReport;
import io.github.chash.analysis.KeySource;
import io.github.chash.config.ChashConfig;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reconfiguration changes, in one log line: nodes added, removed and reweighted, and the
 * share of keys that move, exact from the rings where the analysis can be (as {@code chash:check}
 * computes it), else sampled.
 */
final class ChangeSummary {
  private static final int SAMPLE_KEYS = 100_000;

  private ChangeSummary() {}

  static String describe(
      Ring before, Ring after, ChashConfig beforeConfig, ChashConfig afterConfig) {
    Map<String, Integer> was = weights(before);
    Map<String, Integer> is = weights(after);
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> reweighted = new ArrayList<>();
    is.forEach(
        (id, w) -> {
          Integer old = was.get(id);
          if (old == null) {
            added.add(id);
          } else if (!old.equals(w)) {
            reweighted.add(id + " " + old + " -> " + w);
          }
        });
    was.keySet().stream().filter(id -> !is.containsKey(id)).forEach(removed::add);
    return "nodes added "
        + added
        + ", removed "
        + removed
        + ", reweighted "
        + reweighted
        + "; "
        + moved(before, after, beforeConfig, afterConfig);
  }

  private static String moved(
      Ring before, Ring after, ChashConfig beforeConfig, ChashConfig afterConfig) {
    if (beforeConfig != null && afterConfig != null) {
      String pattern = afterConfig.check().keyPattern();
      BaselineReport report =
          BaselineComparison.compare(
              beforeConfig,
              "the running configuration",
              afterConfig,
              KeySource.pattern(pattern, SAMPLE_KEYS));
      return String.format(
          "%.2f%% of keys move (ideal %.2f%%; %s)",
          100 * report.movedFraction(), 100 * report.idealMoved(), report.method());
    }
    int moved = 0;
    for (int i = 0; i < SAMPLE_KEYS; i++) {
      String key = "key:" + i;
      moved += before.locate(key).id().equals(after.locate(key).id()) ? 0 : 1;
    }
    return String.format(
        "%.2f%% of keys move (sampled over %d keys)", 100.0 * moved / SAMPLE_KEYS, SAMPLE_KEYS);
  }

  private static Map<String, Integer> weights(Ring ring) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Node node : ring.nodes()) {
      out.put(node.id(), node.weight());
    }
    return out;
  }
}
