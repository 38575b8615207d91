package io.github.chash.config;

/**
 * The {@code check:} block: the limits {@code chash:check} enforces and how it samples keys.
 *
 * @param maxSkew largest allowed node share divided by its fair share (weight / total weight)
 * @param sampleKeys number of keys sampled
 * @param keyPattern synthetic key pattern, {@code {n}} replaced by 0, 1, 2, ...
 * @param keysFile a file of real keys, one a line, relative to the config file (null: use the
 *     pattern)
 * @param baseline the configuration to compare against for movement limits (a file, or {@code
 *     groupId:artifactId:version}); null for none
 * @param maxMoved largest allowed fraction of keys moved against the baseline (null: no limit)
 * @param maxMovedOverIdeal largest allowed ratio of moved keys to the ideal minimum (null: no
 *     limit)
 */
public record CheckConfig(
    double maxSkew,
    int sampleKeys,
    String keyPattern,
    String keysFile,
    String baseline,
    Double maxMoved,
    Double maxMovedOverIdeal) {

  /** Most keys {@code sampleKeys} may ask for. */
  public static final int MAX_SAMPLE_KEYS = 100_000_000;

  /** maxSkew 1.20, 1,000,000 keys of pattern {@code key:{n}}, no baseline. */
  public static CheckConfig defaults() {
    return new CheckConfig(1.20, 1_000_000, "key:{n}", null, null, null, null);
  }
}
