package io.github.chash.internal.cache;

/**
 * Internal: the value stored for a cached {@code null}, so that a cached null differs from a miss.
 *
 * <p>{@code InterceptedCache.getIfPresent} returns {@link #INSTANCE} for a cached null; callers
 * turn it back into {@code null}. Remote nodes' codecs must round-trip it (it is an enum, so JDK
 * serialization keeps it a singleton).
 */
public enum NullValue {
  /** The only instance. */
  INSTANCE;

  /**
   * {@return {@code null} for {@link #INSTANCE}, else the value itself}
   *
   * @param stored a value returned by a cache, not null
   */
  public static Object unwrap(Object stored) {
    return stored == INSTANCE ? null : stored;
  }

  /**
   * {@link #unwrap} as the caller's value type: the one unchecked cast of the cache layer.
   *
   * @param <V> the caller's value type
   * @param stored a value returned by a cache, not null
   * @return {@code null} for {@link #INSTANCE}, else the value itself
   */
  @SuppressWarnings("unchecked")
  public static <V> V unwrapAs(Object stored) {
    return (V) unwrap(stored);
  }

  /**
   * {@return {@link #INSTANCE} for {@code null}, else the value itself}
   *
   * @param value a value, possibly null
   */
  public static Object wrap(Object value) {
    return value == null ? INSTANCE : value;
  }
}
