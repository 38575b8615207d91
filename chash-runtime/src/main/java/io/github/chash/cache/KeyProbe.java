package io.github.chash.cache;

/**
 * A routing key ({@code prefix} and a key's canonical form) held in a reusable per-thread buffer
 * instead of a new {@code String}, so a cache hit on a local node allocates nothing: the ring
 * hashes it as a {@link CharSequence}, and a map keyed by {@code String}s finds the equal string's
 * entry with it, because a {@code ConcurrentHashMap} lookup (which Caffeine's is) calls {@code
 * probe.equals(storedKey)} on the argument, after comparing {@link #hashCode}, which is {@code
 * String.hashCode} of the same chars.
 *
 * <p>That equality is one-sided ({@code storedKey.equals(probe)} is false), so a probe must only
 * ever be the argument of a lookup of a {@code String}-keyed hash map: never stored, never a key of
 * a write, never kept past the call that took it (the next {@code of} on the thread reuses it).
 * Anything else takes {@link #toString()}, the routing key itself.
 */
final class KeyProbe implements CharSequence {
  private static final ThreadLocal<KeyProbe> OF_THREAD = ThreadLocal.withInitial(KeyProbe::new);

  /** Longest key (prefix included) a probe holds; longer ones go the way of a plain string. */
  static final int MAX_LENGTH = 256;

  private final char[] chars = new char[MAX_LENGTH];
  private int length;
  private int hash;

  private KeyProbe() {}

  /**
   * The thread's probe holding the routing key of a {@code String}, {@code Long} or {@code Integer}
   * key (their canonical forms are the string and the decimal), or null for any other key or one
   * too long for a probe.
   */
  static KeyProbe ofScalar(String prefix, Object key) {
    if (key instanceof String s) {
      return of(prefix, s);
    }
    if (key instanceof Long l) {
      return of(prefix, l.longValue());
    }
    if (key instanceof Integer i) {
      return of(prefix, i.longValue());
    }
    return null;
  }

  /** The thread's probe holding {@code prefix + key}, or null if that is too long for one. */
  static KeyProbe of(String prefix, String key) {
    int n = prefix.length() + key.length();
    if (n > MAX_LENGTH) {
      return null;
    }
    KeyProbe probe = OF_THREAD.get();
    prefix.getChars(0, prefix.length(), probe.chars, 0);
    key.getChars(0, key.length(), probe.chars, prefix.length());
    return probe.filled(n);
  }

  /** The thread's probe holding {@code prefix} and the decimal of {@code key}, or null. */
  static KeyProbe of(String prefix, long key) {
    int p = prefix.length();
    if (p + 20 > MAX_LENGTH) {
      return null;
    }
    KeyProbe probe = OF_THREAD.get();
    char[] c = probe.chars;
    prefix.getChars(0, p, c, 0);
    // digits from the right, as Long.toString; a negative value is worked in negatives so that
    // Long.MIN_VALUE needs no special case
    int digits = key == 0 ? 1 : 0;
    for (long v = key; v != 0; v /= 10) {
      digits++;
    }
    int n = p + digits + (key < 0 ? 1 : 0);
    long v = key < 0 ? key : -key;
    int at = n;
    do {
      c[--at] = (char) ('0' - (v % 10));
      v /= 10;
    } while (v != 0);
    if (key < 0) {
      c[--at] = '-';
    }
    return probe.filled(n);
  }

  private KeyProbe filled(int n) {
    length = n;
    int h = 0;
    for (int i = 0; i < n; i++) {
      h = 31 * h + chars[i];
    }
    hash = h;
    return this;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public char charAt(int index) {
    if (index >= length) {
      throw new IndexOutOfBoundsException(index);
    }
    return chars[index];
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return toString().subSequence(start, end);
  }

  /** {@code String.hashCode()} of the routing key. */
  @Override
  public int hashCode() {
    return hash;
  }

  /** Whether {@code o} is the routing key as a {@code String} (one-sided: see the class). */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof String s) || s.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (s.charAt(i) != chars[i]) {
        return false;
      }
    }
    return true;
  }

  /** The routing key. */
  @Override
  public String toString() {
    return new String(chars, 0, length);
  }
}
