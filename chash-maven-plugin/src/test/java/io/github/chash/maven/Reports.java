package io.github.chash.maven;

import io.github.chash.analysis.BaselineComparison;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.io.File;

/** Reports of configurations written inline, as the goals build them. */
final class Reports {
  static final ConfigFile FILE =
      new ConfigFile(
          new File("/work/orders/src/main/resources/chash.yaml"),
          "orders/src/main/resources/chash.yaml",
          false);

  private Reports() {}

  static ChashConfig config(String yaml) {
    return ChashConfigs.parse(yaml, "chash.yaml");
  }

  /** {@code n} local nodes {@code cache-0..}, weights {@code 1 + i % 3} when weighted. */
  static String nodes(int n, boolean weighted) {
    StringBuilder b = new StringBuilder("nodes:\n");
    for (int i = 0; i < n; i++) {
      b.append("  - { id: cache-").append(i).append(", weight: ").append(weighted ? 1 + i % 3 : 1);
      b.append(" }\n");
    }
    return b.toString();
  }

  static ReportData report(String yaml, double limit, int sampleKeys, int top) {
    AnalysisInputs inputs =
        AnalysisInputs.of(config(yaml), FILE, limit, sampleKeys, null, "users:{n}", top);
    return ReportData.analyze(inputs, inputs.ring(), null);
  }

  /** The report of {@code now} against {@code before}, with the default limits. */
  static ReportData withBaseline(String before, String now, int sampleKeys) {
    AnalysisInputs inputs =
        AnalysisInputs.of(config(now), FILE, 1.2, sampleKeys, null, "users:{n}", 10);
    var ring = inputs.ring();
    ReportData data = ReportData.analyze(inputs, ring, null);
    var comparison =
        BaselineComparison.compare(
            config(before), "git:main@1a2b3c4", inputs.config(), ring, inputs.keys());
    return data.withBaseline(BaselineResult.of(comparison, FILE, null, null, null, null));
  }
}
