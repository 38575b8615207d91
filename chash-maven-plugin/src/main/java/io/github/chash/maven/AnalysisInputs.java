package io.github.chash.maven;

import io.github.chash.analysis.KeySource;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.CheckConfig;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The {@code check:} block of a config with the command-line overrides applied: the skew limit, the
 * sample keys and how many nodes the console lists. Plain Java, so tests need no Maven.
 *
 * @param config the loaded configuration
 * @param file where it came from
 * @param limit the largest allowed skew
 * @param keys the sample keys
 * @param top how many nodes the console lists at most
 */
record AnalysisInputs(ChashConfig config, ConfigFile file, double limit, KeySource keys, int top) {

  /** Nodes the console lists at most by default. */
  static final int DEFAULT_TOP = 10;

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
      ConfigFile file,
      String maxSkew,
      String sampleKeys,
      File keysFile,
      String keyPattern,
      String top) {
    return of(
        config,
        file,
        Overrides.maxSkew(maxSkew),
        Overrides.sampleKeys(sampleKeys),
        keysFile,
        Overrides.keyPattern(keyPattern),
        Overrides.top(top));
  }

  /**
   * Applies the overrides (null: keep the config's value). A keys file, from the command line or
   * the config, wins over a key pattern; the config's {@code keysFile} is relative to the config
   * file's folder.
   */
  static AnalysisInputs of(
      ChashConfig config,
      ConfigFile file,
      Double maxSkew,
      Integer sampleKeys,
      File keysFile,
      String keyPattern,
      Integer top) {
    CheckConfig check = checkOf(config);
    double limit = maxSkew != null ? maxSkew : check.maxSkew();
    int count = sampleKeys != null ? sampleKeys : check.sampleKeys();
    KeySource keys;
    if (keysFile != null) {
      keys = KeySource.file(keysFile.toPath());
    } else if (keyPattern == null && check.keysFile() != null) {
      Path dir = file.folder();
      try {
        keys = KeySource.file(dir.resolve(check.keysFile()));
      } catch (IllegalArgumentException | UncheckedIOException e) {
        // say where the path came from: the user looks for it in chash.yaml, not on the command
        // line
        String where = "check.keysFile of " + file.display() + ": ";
        if (e instanceof UncheckedIOException io) {
          throw new UncheckedIOException(where + e.getMessage(), io.getCause());
        }
        throw new IllegalArgumentException(where + e.getMessage(), e);
      }
    } else {
      keys = KeySource.pattern(keyPattern != null ? keyPattern : check.keyPattern(), count);
    }
    return new AnalysisInputs(config, file, limit, keys, top != null ? top : DEFAULT_TOP);
  }

  /** The configuration's {@code check:} block, or the defaults without one. */
  CheckConfig check() {
    return checkOf(config);
  }

  private static CheckConfig checkOf(ChashConfig config) {
    return config.check() == null ? CheckConfig.defaults() : config.check();
  }

  /** The configured ring. */
  Ring ring() {
    return Rings.create(config.ring(), config.ringNodes());
  }
}
