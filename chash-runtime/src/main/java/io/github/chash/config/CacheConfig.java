package io.github.chash.config;

import io.github.chash.internal.text.Durations;
import io.github.chash.internal.text.Quotes;
import java.time.Duration;

/**
 * One entry of {@code caches:}; its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param name the cache name used by the annotations: not blank, without {@code :}
 * @param ttl time to live of each entry, positive; null means no expiry
 */
public record CacheConfig(String name, Duration ttl) {

  /**
   * Checks the values.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   * @param ttl time to live of each entry, positive; null means no expiry
   * @throws IllegalArgumentException if the name or the ttl breaks its rule ({@link #nameProblem},
   *     {@link #ttlProblem})
   */
  public CacheConfig {
    Rules.require("cache name", nameProblem(name));
    Rules.require("ttl of cache " + Quotes.quote(name), ttlProblem(ttl));
  }

  /**
   * {@return the rule of cache names: null when valid, else what is wrong} The routing key is
   * {@code name + ":" + key}, so a colon in a name would make two caches' keys collide.
   *
   * @param name the cache name used by the annotations: not blank, without {@code :}
   */
  public static String nameProblem(String name) {
    if (name == null || name.isBlank()) {
      return "must not be empty, was " + (name == null ? "null" : Quotes.quote(name));
    }
    return name.contains(":") ? Quotes.quote(name) + " must not contain ':'" : null;
  }

  /**
   * {@return the rule of ttls: null when {@code ttl} is null (no expiry) or positive, else what is
   * wrong}
   *
   * @param ttl time to live of each entry, positive; null means no expiry
   */
  public static String ttlProblem(Duration ttl) {
    return ttl == null ? null : Rules.positive(ttl);
  }

  /**
   * {@return the rule of a ttl written as text (an annotation's {@code ttl = "10m"}): null when it
   * is a positive duration in {@link Durations}' form, else what is wrong}
   *
   * @param text the ttl as written, e.g. {@code 10m}
   */
  public static String ttlTextProblem(String text) {
    String form = Durations.problem(text);
    return form != null ? form : Rules.positive(Durations.parse(text), Quotes.quote(text));
  }

  /**
   * Parses a ttl written as text.
   *
   * @param text the ttl as written, e.g. {@code 10m}
   * @param subject what the message names, e.g. {@code ttl of OrderService.find}
   * @return the ttl
   * @throws IllegalArgumentException naming {@code subject} when {@link #ttlTextProblem} objects
   */
  public static Duration parseTtl(String text, String subject) {
    Rules.require(subject, ttlTextProblem(text));
    return Durations.parse(text);
  }
}
