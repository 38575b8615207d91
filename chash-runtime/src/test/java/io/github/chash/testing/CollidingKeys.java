package io.github.chash.testing;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Different keys that had one canonical form before issue 43 (a text read as {@code null} or as a
 * composite), for the tests of every way to a key: {@code CanonicalKeys}, a typed cache,
 * {@code @ShardedCacheable} and Spring's {@code @Cacheable}. One list, so that a pair found later
 * is checked on every path.
 */
public final class CollidingKeys {
  private CollidingKeys() {}

  /** A record, whose form {@code (7,EUR)} a text can spell. */
  public record Price(long amount, String currency) {}

  /** {@return the pairs, each pair's keys different and once of one form} */
  public static List<Object[]> pairs() {
    return List.of(
        new Object[] {null, "null"},
        new Object[] {null, Optional.empty()},
        new Object[] {"null", Optional.empty()},
        new Object[] {"[a,b]", List.of("a", "b")},
        new Object[] {"{a=b}", Map.of("a", "b")},
        new Object[] {"[1,2]", new byte[] {1, 2}},
        new Object[] {"[]", List.of()},
        new Object[] {"(7,EUR)", new Price(7, "EUR")},
        new Object[] {"\\empty", Optional.empty()},
        new Object[] {Arrays.asList(null, "x"), List.of("null", "x")},
        new Object[] {Arrays.asList((Object) null), List.of(Optional.empty())},
        new Object[] {List.of(), List.of("")});
  }

  /**
   * {@return a key with its type, which a method under test returns, so that a value cached for one
   * key of a pair is told from the other's}
   *
   * @param key a key of {@link #pairs()}
   */
  public static String described(Object key) {
    if (key == null) {
      return "null";
    }
    Object shown = key instanceof byte[] bytes ? Arrays.toString(bytes) : key;
    return key.getClass().getSimpleName() + " " + shown;
  }
}
