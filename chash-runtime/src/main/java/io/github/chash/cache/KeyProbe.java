package io.github.chash.cache;

import io.github.chash.internal.keys.AsciiBytes;

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
 *
 * <p>While every char is ASCII (a numeric key always, most string keys) the probe also holds them
 * as bytes, from which the ring's hash reads ({@link AsciiBytes}).
 */
final class KeyProbe implements AsciiBytes {
  private static final ThreadLocal<KeyProbe> OF_THREAD = ThreadLocal.withInitial(KeyProbe::new);

  /** Longest key (prefix included) a probe holds; longer ones go the way of a plain string. */
  static final int MAX_LENGTH = 256;

  /** {@code 31^k} (mod 2^32) for every length a probe holds. */
  private static final int[] POWERS_OF_31 = new int[MAX_LENGTH + 1];

  static {
    POWERS_OF_31[0] = 1;
    for (int k = 1; k <= MAX_LENGTH; k++) {
      POWERS_OF_31[k] = 31 * POWERS_OF_31[k - 1];
    }
  }

  private final char[] chars = new char[MAX_LENGTH];
  private final byte[] bytes = new byte[MAX_LENGTH];
  private int length;
  private int hash;
  private boolean ascii;

  /**
   * The prefix that {@link #chars} and {@link #bytes} begin with (the same {@code String}: a cache
   * keeps one), so that the next key of the same cache writes only its own form; null when unknown.
   */
  private String heldPrefix;

  private boolean prefixAscii;

  /**
   * The record class whose components {@link #componentsOf} found last, and those. Holding one
   * class per thread keeps its loader alive no longer than the thread's probe (of chash's loader)
   * does anyway.
   */
  private Class<?> lastRecordClass;

  private RecordComponents lastRecordComponents;

  /** Counts the fills, so that a record's form can tell whether an accessor filled the probe. */
  private int fills;

  /** The thread's builder for composite keys' forms; reset before each use. */
  private StringBuilder form = new StringBuilder(MAX_LENGTH);

  /**
   * Whether {@link #form} is being written: a record accessor or a {@code toString} that the
   * canonical form calls may itself look up a key on this thread, which must not reuse it.
   */
  private boolean formBusy;

  private KeyProbe() {}

  /**
   * The thread's probe holding the routing key of any key ({@link CanonicalKeys}): a {@code
   * String}, {@code Long} or {@code Integer} directly (their forms are the string and the decimal),
   * a record of strings and integers ({@link RecordComponents#flat}) written straight into the
   * probe, anything else (a record, a collection) through a reused builder, so the lookup builds no
   * string. Null when the routing key is too long for a probe, when the thread's builder is in use
   * by an enclosing lookup, or when a record's accessor looked up a key itself: the caller then
   * builds the routing key, running a composite key's accessors a second time.
   *
   * @throws IllegalArgumentException if the key has no stable form
   */
  static KeyProbe of(String prefix, Object key, String where) {
    if (key instanceof String s) {
      return of(prefix, s);
    }
    if (key instanceof Long l) {
      return of(prefix, l.longValue());
    }
    if (key instanceof Integer i) {
      return of(prefix, i.longValue());
    }
    KeyProbe probe = OF_THREAD.get();
    if (key instanceof Record r) {
      RecordComponents components = probe.componentsOf(r.getClass());
      if (components.flat) {
        return probe.ofFlatRecord(prefix, r, components);
      }
    }
    if (probe.formBusy) {
      return null;
    }
    probe.formBusy = true;
    try {
      StringBuilder out = probe.form;
      out.setLength(0);
      CanonicalKeys.appendTo(out, key, where);
      int n = prefix.length() + out.length();
      if (n > MAX_LENGTH) {
        if (out.capacity() > 4 * MAX_LENGTH) {
          probe.form = new StringBuilder(MAX_LENGTH); // a huge key does not stay with the thread
        }
        return null;
      }
      // held only now: the form's accessors and toString may have filled the probe themselves
      int p = probe.hold(prefix);
      out.getChars(0, out.length(), probe.chars, p);
      return probe.filled(n);
    } finally {
      probe.formBusy = false;
    }
  }

  private KeyProbe ofFlatRecord(String prefix, Record r, RecordComponents components) {
    if (prefix.length() >= MAX_LENGTH) {
      return null;
    }
    int p = hold(prefix);
    int fill = fills;
    int n = CanonicalKeys.putFlatRecord(chars, p, r, components);
    // an accessor that looked up a key on this thread wrote over the form: the caller builds it
    return n < 0 || fills != fill ? null : filled(n);
  }

  /**
   * The components of a record class, from the last one this thread looked up when it is the same
   * (a hot path sees one record type after another; the class's own cache is a hash lookup).
   */
  private RecordComponents componentsOf(Class<?> recordClass) {
    if (recordClass != lastRecordClass) {
      lastRecordComponents = RecordComponents.of(recordClass);
      lastRecordClass = recordClass;
    }
    return lastRecordComponents;
  }

  /** The thread's probe holding {@code prefix + key}, or null if that is too long for one. */
  static KeyProbe of(String prefix, String key) {
    int n = prefix.length() + key.length();
    if (n > MAX_LENGTH) {
      return null;
    }
    KeyProbe probe = OF_THREAD.get();
    int p = probe.hold(prefix);
    key.getChars(0, key.length(), probe.chars, p);
    return probe.filled(n);
  }

  /** The thread's probe holding {@code prefix} and the decimal of {@code key}, or null. */
  static KeyProbe of(String prefix, long key) {
    if (prefix.length() + 20 > MAX_LENGTH) {
      return null;
    }
    KeyProbe probe = OF_THREAD.get();
    int p = probe.hold(prefix);
    return probe.filled(CanonicalKeys.putDecimal(probe.chars, p, key));
  }

  /**
   * Makes the probe begin with {@code prefix} (which the caller has checked fits), writing it only
   * if it is not the one held already; counts a fill.
   *
   * @return the prefix's length, where the key's form goes
   */
  private int hold(String prefix) {
    fills++;
    int p = prefix.length();
    if (prefix != heldPrefix) {
      prefix.getChars(0, p, chars, 0);
      prefixAscii = copyPrefixBytes(p);
      heldPrefix = prefix;
    }
    return p;
  }

  /**
   * Copies the prefix, {@code chars[0, p)}, into {@link #bytes}, each char's low byte: whether all
   * are ASCII ({@link #filled} does the same for the form, in its one walk).
   */
  private boolean copyPrefixBytes(int p) {
    char[] c = chars;
    byte[] b = bytes;
    int or = 0;
    for (int i = 0; i < p; i++) {
      or |= c[i];
      b[i] = (byte) c[i];
    }
    return or < 0x80;
  }

  /**
   * Takes the held prefix and the chars after it up to {@code n} as the key: their hash and, while
   * ASCII, their bytes.
   */
  private KeyProbe filled(int n) {
    length = n;
    char[] c = chars;
    byte[] b = bytes;
    int p = heldPrefix.length();
    // one walk over the form copies its bytes, ORs its chars (all ASCII when below 0x80) and
    // takes String.hashCode of the whole: the prefix's (kept by the String) times 31^(n - p), plus
    // that of the rest, four chars a step (h * 31^4 + c0 * 31^3 + ... + c3 is the same sum mod
    // 2^32, with one multiplication on the chain per four chars instead of one per char)
    int h = 0;
    int or = 0;
    int i = p;
    for (; i + 3 < n; i += 4) {
      char c0 = c[i];
      char c1 = c[i + 1];
      char c2 = c[i + 2];
      char c3 = c[i + 3];
      b[i] = (byte) c0;
      b[i + 1] = (byte) c1;
      b[i + 2] = (byte) c2;
      b[i + 3] = (byte) c3;
      or |= c0 | c1 | c2 | c3;
      h = 923_521 * h + 29_791 * c0 + 961 * c1 + 31 * c2 + c3;
    }
    for (; i < n; i++) {
      char ci = c[i];
      b[i] = (byte) ci;
      or |= ci;
      h = 31 * h + ci;
    }
    hash = heldPrefix.hashCode() * POWERS_OF_31[n - p] + h;
    ascii = prefixAscii && or < 0x80;
    return this;
  }

  @Override
  public byte[] asciiBytes() {
    return ascii ? bytes : null;
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
