package io.github.chash.config;

import java.time.Duration;
import java.util.Objects;

/**
 * A cache's near cache ({@code caches.<name>.near}): values read from remote nodes kept in this
 * JVM, so that a hit costs about what a local shard's does; its constructor applies the rules
 * {@code chash.yaml} gets.
 *
 * @param maximumSize the most entries kept in this JVM, in {@code [1, 2^31 - 1]}
 * @param ttl the longest an entry is served from this JVM after it was read from its node (never
 *     longer than the node's own entry lives), positive: the bound of staleness when a change is
 *     not reported (see {@link NearInvalidation})
 * @param invalidation how entries learn of changes made by other JVMs; null means {@link
 *     NearInvalidation#SERVER}
 */
public record NearConfig(long maximumSize, Duration ttl, NearInvalidation invalidation) {

  /** The rule of {@code maximumSize}: Caffeine bounds, in whole entries. */
  static final Rules.Whole MAXIMUM_SIZE =
      new Rules.Whole(1, Integer.MAX_VALUE, "a positive integer up to 2147483647");

  /**
   * Checks the values.
   *
   * @param maximumSize the most entries kept in this JVM, positive
   * @param ttl the longest an entry is served after it was read, positive
   * @param invalidation how entries learn of other JVMs' writes; null for {@link
   *     NearInvalidation#SERVER}
   * @throws IllegalArgumentException if {@code maximumSize} or {@code ttl} breaks its rule
   * @throws NullPointerException if {@code ttl} is null
   */
  public NearConfig {
    Rules.require("near.maximumSize", MAXIMUM_SIZE.problem(maximumSize));
    Objects.requireNonNull(ttl, "near.ttl");
    Rules.require("near.ttl", Rules.positive(ttl));
    invalidation = invalidation == null ? NearInvalidation.SERVER : invalidation;
  }

  /**
   * A near cache invalidated by the servers ({@link NearInvalidation#SERVER}).
   *
   * @param maximumSize the most entries kept in this JVM, positive
   * @param ttl the longest an entry is served after it was read, positive
   * @throws IllegalArgumentException if a value breaks its rule
   */
  public NearConfig(long maximumSize, Duration ttl) {
    this(maximumSize, ttl, NearInvalidation.SERVER);
  }

  /**
   * {@return the rule of a near cache's cache: null when it may have one, else what is wrong} A
   * verbatim cache's keys carry no prefix of this application, so no server can be asked to report
   * their changes.
   *
   * @param keys the cache's key layout
   */
  static String keysProblem(KeyLayout keys) {
    return keys == KeyLayout.VERBATIM
        ? "needs a prefixed cache (its changes are tracked by key prefix), and the cache is verbatim"
        : null;
  }
}
