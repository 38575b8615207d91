package io.github.chash.maven;

import io.github.chash.analysis.DistributionAnalysis;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.KeySource;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.CheckConfig;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The {@code check:} block of a config with the command-line overrides applied: the skew limit and
 * the sample keys. Plain Java, so tests need no Maven.
 *
 * @param config the loaded configuration
 * @param limit the largest allowed skew
 * @param keys the sample keys
 */
record AnalysisInputs(ChashConfig config, double limit, KeySource keys) {

  /**
   * Parses the command-line overrides as typed by the user (null or blank: keep the config's
   * value), each checked against the range {@code chash.yaml} allows, then applies them. Every goal
   * and the site report go through here, so an override is validated the same way wherever it is
   * given.
   *
   * @throws IllegalArgumentException naming the property and its bad value
   */
  static AnalysisInputs fromOverrides(
      ChashConfig config,
      File configFile,
      String maxSkew,
      String sampleKeys,
      File keysFile,
      String keyPattern) {
    return of(
        config,
        configFile,
        Overrides.maxSkew(maxSkew),
        Overrides.sampleKeys(sampleKeys),
        keysFile,
        Overrides.keyPattern(keyPattern));
  }

  /**
   * Applies the overrides (null: keep the config's value). A keys file, from the command line or
   * the config, wins over a key pattern; the config's {@code keysFile} is relative to the config
   * file's folder.
   */
  static AnalysisInputs of(
      ChashConfig config,
      File configFile,
      Double maxSkew,
      Integer sampleKeys,
      File keysFile,
      String keyPattern) {
    CheckConfig check = config.check() == null ? CheckConfig.defaults() : config.check();
    double limit = maxSkew != null ? maxSkew : check.maxSkew();
    if (!(limit > 0)) {
      throw new IllegalArgumentException("chash.maxSkew must be positive; was " + limit);
    }
    int count = sampleKeys != null ? sampleKeys : check.sampleKeys();
    if (count < 0) {
      throw new IllegalArgumentException("chash.sampleKeys must not be negative; was " + count);
    }
    KeySource keys;
    if (keysFile != null) {
      keys = KeySource.file(keysFile.toPath());
    } else if (keyPattern == null && check.keysFile() != null) {
      Path dir = configFile.getAbsoluteFile().toPath().getParent();
      try {
        keys = KeySource.file(dir.resolve(check.keysFile()));
      } catch (IllegalArgumentException | UncheckedIOException e) {
        // say where the path came from: the user looks for it in chash.yaml, not on the command
        // line
        String where = "check.keysFile of " + configFile.getName() + ": ";
        if (e instanceof UncheckedIOException io) {
          throw new UncheckedIOException(where + e.getMessage(), io.getCause());
        }
        throw new IllegalArgumentException(where + e.getMessage(), e);
      }
    } else {
      keys = KeySource.pattern(keyPattern != null ? keyPattern : check.keyPattern(), count);
    }
    return new AnalysisInputs(config, limit, keys);
  }

  /** The configured ring. */
  Ring ring() {
    return Rings.create(config.ring(), config.ringNodes());
  }

  /** Analyzes the configured ring. */
  DistributionReport analyze() {
    return DistributionAnalysis.analyze(ring(), keys, limit);
  }
}
