package io.github.chash.ring;

import java.util.Objects;

/**
 * How a ring places keys: the algorithm, the hash function, for {@code ring} and {@code ketama} the
 * number of virtual points per unit of weight, for {@code ketama} the client it reproduces ({@link
 * KetamaCompat}) and for {@code jedis} whether keys are hashed by their {@code {tag}}.
 *
 * <p>Two rings with equal settings and equal node sets place every key identically, in any JVM.
 * Instances are immutable and thread-safe.
 */
public final class RingSettings {
  /** Smallest accepted {@code pointsPerWeight}. */
  public static final int MIN_POINTS_PER_WEIGHT = 1;

  /** Largest accepted {@code pointsPerWeight}: beyond it a ring of many nodes costs gigabytes. */
  public static final int MAX_POINTS_PER_WEIGHT = 10_000;

  /**
   * Most virtual points one {@code ring} or {@code ketama} ring may hold: 8 bytes each (256 MB at
   * the cap) in every JVM that builds it. Enough for 10,000 nodes of weight up to 3 at the default
   * {@value #DEFAULT_RING_POINTS} points per weight; beyond it weights or {@code pointsPerWeight}
   * are most likely a mistake, and {@code maglev} balances as well with no points at all.
   */
  public static final long MAX_TOTAL_POINTS = 32_000_000;

  /** Default points per unit of weight for {@code ring}: peak/mean load about 1.08 at 100 nodes. */
  public static final int DEFAULT_RING_POINTS = 1000;

  /** libketama's 40 digests x 4 points per server of average weight. */
  public static final int DEFAULT_KETAMA_POINTS = 160;

  private final Algorithm algorithm;
  private final HashFunction hash;
  private final int pointsPerWeight;
  private final KetamaCompat compat;
  private final boolean keyTags;

  private RingSettings(
      Algorithm algorithm,
      HashFunction hash,
      int pointsPerWeight,
      KetamaCompat compat,
      boolean keyTags) {
    this.algorithm = algorithm;
    this.hash = hash;
    this.pointsPerWeight = pointsPerWeight;
    this.compat = compat;
    this.keyTags = keyTags;
  }

  /**
   * Fails when a ring would need more than {@link #MAX_TOTAL_POINTS} virtual points.
   *
   * @throws IllegalArgumentException naming the count and the limit
   */
  static void checkTotalPoints(long total) {
    if (total > MAX_TOTAL_POINTS) {
      throw new IllegalArgumentException(
          "the ring would need "
              + total
              + " virtual points; at most "
              + MAX_TOTAL_POINTS
              + " are allowed (8 bytes each in every JVM): lower pointsPerWeight or the weights, or"
              + " use algorithm maglev, which needs no virtual points");
    }
  }

  /**
   * {@return the defaults: {@code ring}, {@code xxh3}, {@value #DEFAULT_RING_POINTS} points per
   * weight}
   */
  public static RingSettings defaults() {
    return builder().build();
  }

  /**
   * {@return the given algorithm with its default hash and points}
   *
   * @param algorithm the placement algorithm
   */
  public static RingSettings of(Algorithm algorithm) {
    return builder().algorithm(algorithm).build();
  }

  /** {@return a builder starting from the defaults} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder starting from these settings.
   *
   * @return this builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.algorithm = algorithm;
    b.hash = hash;
    b.pointsPerWeight = pointsPerWeight;
    b.compat = compat;
    b.keyTags = keyTags;
    return b;
  }

  /** {@return the placement algorithm} */
  public Algorithm algorithm() {
    return algorithm;
  }

  /**
   * {@return the hash function applied to keys (and to virtual point names for {@code ring})}
   * {@code ketama} always uses MD5, as libketama does; it reports {@code md5} here. {@code jedis}
   * always uses MurmurHash64A with Jedis' seed; it reports {@code murmur64a-jedis}, a function no
   * other algorithm can be given.
   */
  public HashFunction hash() {
    return hash;
  }

  /**
   * {@return virtual points per unit of weight ({@code ring}, {@code ketama}); ignored by the
   * others} Fixed at 160 for {@code jedis} and for {@code ketama} with compat {@code twemproxy} or
   * {@code libketama}, as those clients hard-code it.
   */
  public int pointsPerWeight() {
    return pointsPerWeight;
  }

  /**
   * {@return the ketama client {@code ketama} reproduces; {@link KetamaCompat#SPYMEMCACHED} unless
   * set, and for the other algorithms, which ignore it}
   */
  public KetamaCompat compat() {
    return compat;
  }

  /**
   * {@return whether {@code jedis} hashes a key by its first {@code {tag}} only, as Jedis does with
   * {@code Sharded.DEFAULT_KEY_TAG_PATTERN}; always false for the other algorithms}
   */
  public boolean keyTags() {
    return keyTags;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RingSettings other
        && algorithm == other.algorithm
        && hash.name().equals(other.hash.name())
        && pointsPerWeight == other.pointsPerWeight
        && compat == other.compat
        && keyTags == other.keyTags;
  }

  @Override
  public int hashCode() {
    return Objects.hash(algorithm, hash.name(), pointsPerWeight, compat, keyTags);
  }

  @Override
  public String toString() {
    return "RingSettings{algorithm="
        + algorithm.configName()
        + (algorithm == Algorithm.KETAMA ? ", compat=" + compat.configName() : "")
        + ", hash="
        + hash.name()
        + ", pointsPerWeight="
        + pointsPerWeight
        + (keyTags ? ", keyTags=true" : "")
        + "}";
  }

  /** Builds {@link RingSettings}; not thread-safe. */
  public static final class Builder {
    private Algorithm algorithm = Algorithm.RING;
    private HashFunction hash;
    private int pointsPerWeight;
    private KetamaCompat compat;
    private boolean keyTags;

    private Builder() {}

    /**
     * Sets the algorithm.
     *
     * @param algorithm the placement algorithm
     * @return this builder
     */
    public Builder algorithm(Algorithm algorithm) {
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    /**
     * Sets the hash function.
     *
     * @param hash the hash function
     * @return this builder
     */
    public Builder hash(HashFunction hash) {
      this.hash = Objects.requireNonNull(hash, "hash");
      return this;
    }

    /**
     * Sets the hash function by its config name.
     *
     * @param name the hash function's config name, e.g. {@code xxh3}
     * @return this builder
     * @throws IllegalArgumentException naming the valid choices when the name is unknown
     */
    public Builder hash(String name) {
      return hash(HashFunctions.forName(name));
    }

    /**
     * Sets the virtual points per unit of weight.
     *
     * @param pointsPerWeight the virtual points per unit of weight
     * @return this builder
     * @throws IllegalArgumentException if outside [{@value #MIN_POINTS_PER_WEIGHT}, {@value
     *     #MAX_POINTS_PER_WEIGHT}]
     */
    public Builder pointsPerWeight(int pointsPerWeight) {
      if (pointsPerWeight < MIN_POINTS_PER_WEIGHT || pointsPerWeight > MAX_POINTS_PER_WEIGHT) {
        throw new IllegalArgumentException(
            "pointsPerWeight must be between "
                + MIN_POINTS_PER_WEIGHT
                + " and "
                + MAX_POINTS_PER_WEIGHT
                + "; was "
                + pointsPerWeight);
      }
      this.pointsPerWeight = pointsPerWeight;
      return this;
    }

    /**
     * Sets the ketama client to reproduce (ignored by the other algorithms).
     *
     * @param compat the ketama client to reproduce
     * @return this builder
     */
    public Builder compat(KetamaCompat compat) {
      this.compat = Objects.requireNonNull(compat, "compat");
      return this;
    }

    /**
     * Sets whether {@code jedis} hashes keys by their first {@code {tag}} (ignored by the other
     * algorithms).
     *
     * @param keyTags whether {@code jedis} hashes keys by their first tag
     * @return this builder
     */
    public Builder keyTags(boolean keyTags) {
      this.keyTags = keyTags;
      return this;
    }

    /**
     * Builds the settings, filling in the algorithm's defaults for what was not set and dropping
     * what the algorithm ignores, so that settings that place keys alike are equal.
     *
     * @return the settings
     */
    public RingSettings build() {
      HashFunction h = hash;
      if (algorithm == Algorithm.KETAMA) {
        h = HashFunctions.md5();
      } else if (algorithm == Algorithm.JEDIS) {
        h = HashFunctions.murmur64aJedis();
      } else if (h == null) {
        h = HashFunctions.xxh3();
      }
      KetamaCompat c =
          algorithm == Algorithm.KETAMA && compat != null ? compat : KetamaCompat.SPYMEMCACHED;
      int points = pointsPerWeight;
      boolean fixedPoints =
          algorithm == Algorithm.JEDIS
              || (algorithm == Algorithm.KETAMA && !c.hasPointsPerWeight());
      if (fixedPoints) {
        points = DEFAULT_KETAMA_POINTS;
      } else if (points == 0) {
        points = algorithm == Algorithm.KETAMA ? DEFAULT_KETAMA_POINTS : DEFAULT_RING_POINTS;
      }
      return new RingSettings(algorithm, h, points, c, algorithm == Algorithm.JEDIS && keyTags);
    }
  }
}
