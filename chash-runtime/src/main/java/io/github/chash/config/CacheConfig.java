package io.github.chash.config;

import io.github.chash.internal.text.Durations;
import io.github.chash.internal.text.Quotes;
import java.time.Duration;
import java.util.List;

/**
 * One entry of {@code caches:}; its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param name the cache name used by the annotations: not blank, without {@code :}
 * @param ttl time to live of each entry, positive; null means no expiry
 * @param jitter the largest part of the ttl taken off each write's TTL at random (uniformly), as a
 *     fraction in {@code [0, 0.5]}, so that entries written together do not expire together; a
 *     write's TTL is never longer than {@code ttl}. Non-zero only with a ttl
 * @param refreshAhead the last part of an entry's ttl, as a fraction in {@code [0, 0.9]}, in which
 *     a hit starts one background reload of the key per JVM (0: never); needs a ttl
 * @param nullTtl the time to live of a cached {@code null}, positive and not longer than the ttl;
 *     null means the cache's ttl
 * @param keys how keys are stored and hashed: {@link KeyLayout#PREFIXED} (the default, under the
 *     cache name and the node's {@code keyPrefix}) or {@link KeyLayout#VERBATIM} (exactly the
 *     application's key, to read and write a peer client's entries in place); a verbatim cache
 *     needs a ttl
 * @param codec the cache's value format, one of {@link #CODECS}; null means the node block's {@code
 *     codec}
 * @param near the cache's near cache in this JVM ({@link NearConfig}); null for none (the default):
 *     every read goes to the key's node
 */
public record CacheConfig(
    String name,
    Duration ttl,
    double jitter,
    double refreshAhead,
    Duration nullTtl,
    KeyLayout keys,
    String codec,
    NearConfig near) {

  /**
   * The value formats a cache may choose: {@code jdk} and {@code jackson} as the node blocks'
   * {@code codec}, {@code string} (UTF-8 text, as a peer client's {@code set(String, String)}
   * writes), {@code bytes} (raw {@code byte[]}), and on memcached nodes the item format of
   * spymemcached's and XMemcached's {@code SerializingTranscoder} ({@code spymemcached}, {@code
   * xmemcached}: flags read and written).
   */
  public static final List<String> CODECS =
      List.of("jdk", "jackson", "string", "bytes", "spymemcached", "xmemcached");

  /** The codecs of memcached peer clients, for verbatim caches on memcached nodes only. */
  public static final List<String> MEMCACHED_PEER_CODECS = List.of("spymemcached", "xmemcached");

  /** The largest {@code jitter}: half the ttl. */
  public static final double MAX_JITTER = 0.5;

  /** The largest {@code refreshAhead}: the last 90% of the ttl. */
  public static final double MAX_REFRESH_AHEAD = 0.9;

  /**
   * Checks the values.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   * @param ttl time to live of each entry, positive; null means no expiry
   * @param jitter the largest part of the ttl taken off at random, in {@code [0, 0.5]}
   * @param refreshAhead the last part of the ttl in which a hit reloads, in {@code [0, 0.9]}
   * @param nullTtl the time to live of a cached null; null for the cache's ttl
   * @param keys how keys are stored and hashed; null means {@link KeyLayout#PREFIXED}
   * @param codec the value format, one of {@link #CODECS}; null for the node block's
   * @param near the near cache; null for none
   * @throws IllegalArgumentException if a value breaks its rule (as each parameter states; a
   *     jitter, refreshAhead or nullTtl needs a ttl, and a near cache a prefixed cache)
   */
  public CacheConfig {
    Rules.require("cache name", nameProblem(name));
    Rules.require("ttl of cache " + Quotes.quote(name), ttlProblem(ttl));
    Rules.require("jitter of cache " + Quotes.quote(name), jitterProblem(jitter, ttl));
    Rules.require(
        "refreshAhead of cache " + Quotes.quote(name), refreshAheadProblem(refreshAhead, ttl));
    Rules.require("nullTtl of cache " + Quotes.quote(name), nullTtlProblem(nullTtl, ttl));
    keys = keys == null ? KeyLayout.PREFIXED : keys;
    Rules.require("keys of cache " + Quotes.quote(name), keysProblem(keys, ttl));
    Rules.require("codec of cache " + Quotes.quote(name), codecProblem(codec));
    if (near != null) {
      Rules.require("near of cache " + Quotes.quote(name), NearConfig.keysProblem(keys));
    }
  }

  /**
   * A cache without a near cache.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   * @param ttl time to live of each entry, positive; null means no expiry
   * @param jitter the largest part of the ttl taken off at random, in {@code [0, 0.5]}
   * @param refreshAhead the last part of the ttl in which a hit reloads, in {@code [0, 0.9]}
   * @param nullTtl the time to live of a cached null; null for the cache's ttl
   * @param keys how keys are stored and hashed; null means {@link KeyLayout#PREFIXED}
   * @param codec the value format, one of {@link #CODECS}; null for the node block's
   * @throws IllegalArgumentException if a value breaks its rule
   */
  public CacheConfig(
      String name,
      Duration ttl,
      double jitter,
      double refreshAhead,
      Duration nullTtl,
      KeyLayout keys,
      String codec) {
    this(name, ttl, jitter, refreshAhead, nullTtl, keys, codec, null);
  }

  /**
   * A prefixed cache with the node block's codec.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   * @param ttl time to live of each entry, positive; null means no expiry
   * @param jitter the largest part of the ttl taken off at random, in {@code [0, 0.5]}
   * @param refreshAhead the last part of the ttl in which a hit reloads, in {@code [0, 0.9]}
   * @param nullTtl the time to live of a cached null; null for the cache's ttl
   * @throws IllegalArgumentException if a value breaks its rule
   */
  public CacheConfig(
      String name, Duration ttl, double jitter, double refreshAhead, Duration nullTtl) {
    this(name, ttl, jitter, refreshAhead, nullTtl, KeyLayout.PREFIXED, null);
  }

  /**
   * {@return this cache with another ttl, every other setting kept}
   *
   * @param ttl the new time to live; null means no expiry
   * @throws IllegalArgumentException if a kept setting breaks its rule under the new ttl (a nullTtl
   *     longer than it, for example)
   */
  public CacheConfig withTtl(Duration ttl) {
    return new CacheConfig(name, ttl, jitter, refreshAhead, nullTtl, keys, codec, near);
  }

  /**
   * {@return this cache with a near cache (or none), every other setting kept}
   *
   * @param near the near cache; null for none
   * @throws IllegalArgumentException if the cache may not have one (a verbatim cache)
   */
  public CacheConfig withNear(NearConfig near) {
    return new CacheConfig(name, ttl, jitter, refreshAhead, nullTtl, keys, codec, near);
  }

  /** {@return whether the cache stores and hashes the application's keys as given} */
  public boolean verbatim() {
    return keys == KeyLayout.VERBATIM;
  }

  /**
   * {@return the rule of {@code keys}: null when valid, else what is wrong} A verbatim cache needs
   * a ttl: it cannot tell its keys from another application's, so no sweep or flush lists them, and
   * the copies a ring change leaves on a previous owner go only when they expire.
   *
   * @param keys the key layout
   * @param ttl the cache's ttl; null means no expiry
   */
  static String keysProblem(KeyLayout keys, Duration ttl) {
    return keys == KeyLayout.VERBATIM && ttl == null
        ? "verbatim needs a ttl (copies a ring change leaves behind are not swept, they expire),"
            + " and the cache has none"
        : null;
  }

  /**
   * {@return the rule of a cache's {@code codec}: null when it is null (the node block's) or one of
   * {@link #CODECS}, else what is wrong}
   *
   * @param codec the codec's name
   */
  static String codecProblem(String codec) {
    return codec == null || CODECS.contains(codec)
        ? null
        : "must be one of " + String.join(", ", CODECS) + "; was " + Quotes.quote(codec);
  }

  /**
   * A cache without jitter, refresh-ahead or a ttl of its own for nulls.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   * @param ttl time to live of each entry, positive; null means no expiry
   * @throws IllegalArgumentException if the name or the ttl breaks its rule
   */
  public CacheConfig(String name, Duration ttl) {
    this(name, ttl, 0, 0, null);
  }

  /**
   * {@return the rule of jitters: null when {@code jitter} is 0, or in {@code (0, 0.5]} with a ttl,
   * else what is wrong}
   *
   * @param jitter the fraction of the ttl
   * @param ttl the cache's ttl; null means no expiry
   */
  static String jitterProblem(double jitter, Duration ttl) {
    return fractionProblem(jitter, MAX_JITTER, ttl, "spreads the ttl");
  }

  /**
   * {@return the rule of refreshAhead: null when it is 0, or in {@code (0, 0.9]} with a ttl, else
   * what is wrong}
   *
   * @param refreshAhead the fraction of the ttl
   * @param ttl the cache's ttl; null means no expiry
   */
  static String refreshAheadProblem(double refreshAhead, Duration ttl) {
    return fractionProblem(refreshAhead, MAX_REFRESH_AHEAD, ttl, "is a part of the ttl");
  }

  /**
   * {@return the rule of nullTtl: null when it is null, or positive and not longer than the ttl,
   * else what is wrong}
   *
   * @param nullTtl the ttl of cached nulls; null means the cache's ttl
   * @param ttl the cache's ttl; null means no expiry
   */
  static String nullTtlProblem(Duration nullTtl, Duration ttl) {
    if (nullTtl == null) {
      return null;
    }
    String positive = Rules.positive(nullTtl);
    if (positive != null) {
      return positive;
    }
    return ttl != null && nullTtl.compareTo(ttl) > 0
        ? "must not be longer than the ttl (" + Rules.shown(ttl) + "), was " + Rules.shown(nullTtl)
        : null;
  }

  private static String fractionProblem(double f, double max, Duration ttl, String why) {
    if (!(f >= 0 && f <= max)) { // NaN too
      return "must be between 0% and " + Percentages.format(max) + ", was " + Percentages.format(f);
    }
    return f > 0 && ttl == null ? "needs a ttl (it " + why + "), and the cache has none" : null;
  }

  /**
   * {@return the rule of cache names: null when valid, else what is wrong} The routing key is
   * {@code name + ":" + key}, so a colon in a name would make two caches' keys collide.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   */
  static String nameProblem(String name) {
    if (name == null || name.isBlank()) {
      return "must not be empty, was " + (name == null ? "null" : Quotes.quote(name));
    }
    if (name.chars().anyMatch(Character::isISOControl)) {
      return Quotes.quote(name) + " must not contain control characters";
    }
    return name.contains(":") ? Quotes.quote(name) + " must not contain ':'" : null;
  }

  /**
   * {@return the rule of ttls: null when {@code ttl} is null (no expiry) or positive, else what is
   * wrong}
   *
   * @param ttl time to live of each entry, positive; null means no expiry
   */
  static String ttlProblem(Duration ttl) {
    return ttl == null ? null : Rules.positive(ttl);
  }

  /**
   * {@return the rule of a ttl written as text (an annotation's {@code ttl = "10m"}): null when it
   * is a positive duration in {@link Durations}' form, else what is wrong}
   *
   * @param text the ttl as written, e.g. {@code 10m}
   */
  static String ttlTextProblem(String text) {
    String form = Durations.problem(text);
    return form != null ? form : Rules.positive(Durations.parse(text), Quotes.quote(text));
  }

  /**
   * Parses a ttl written as text.
   *
   * @param text the ttl as written, e.g. {@code 10m}
   * @param subject what the message names, e.g. {@code ttl of OrderService.find}
   * @return the ttl
   * @throws IllegalArgumentException naming {@code subject} when the text is not a positive
   *     duration such as {@code 10m}
   */
  public static Duration parseTtl(String text, String subject) {
    Rules.require(subject, ttlTextProblem(text));
    return Durations.parse(text);
  }
}
