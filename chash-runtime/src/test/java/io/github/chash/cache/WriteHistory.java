package io.github.chash.cache;

import java.util.ArrayList;
import java.util.List;

/**
 * The checker of real-server tests with concurrent writers, by the rule of the protocol
 * simulation's checker: every write of a key takes the next version and a begin tick; a read that
 * returns version {@code v} is stale only if some write of the key that began after {@code v}
 * stopped being current (after the next version began and after the write of {@code v} returned)
 * completed before the read began. Overlapping writes may land in either order. Thread-safe.
 */
public final class WriteHistory {
  private final List<List<long[]>> versions = new ArrayList<>();
  private final long[] floor;
  private long tick;

  /** A history of {@code keys} keys, each at version 0 (nothing written). */
  public WriteHistory(int keys) {
    floor = new long[keys];
    for (int k = 0; k < keys; k++) {
      List<long[]> v = new ArrayList<>();
      v.add(new long[] {0, 0});
      versions.add(v);
    }
  }

  /** A write of key {@code k} begins: {@return its version} */
  public synchronized long begin(int k) {
    List<long[]> v = versions.get(k);
    v.add(new long[] {++tick, Long.MAX_VALUE});
    return v.size() - 1;
  }

  /** The write of version {@code v} of key {@code k} returned. */
  public synchronized void completed(int k, long v) {
    long[] w = versions.get(k).get((int) v);
    w[1] = ++tick;
    floor[k] = Math.max(floor[k], w[0]);
  }

  /** {@return the current version of the key, as a loader reads it from the database} */
  public synchronized long current(int k) {
    return versions.get(k).size() - 1;
  }

  /** {@return the read's floor, taken when it begins} */
  public synchronized long floor(int k) {
    return floor[k];
  }

  /** {@return whether version {@code v} is stale for a read that began with {@code floor}} */
  public synchronized boolean isStale(int k, long v, long floor) {
    List<long[]> history = versions.get(k);
    if (v < 0 || v >= history.size()) {
      return true;
    }
    long lastValid = v + 1 < history.size() ? history.get((int) v + 1)[0] : Long.MAX_VALUE;
    lastValid = Math.max(lastValid, history.get((int) v)[1]);
    return floor > lastValid;
  }

  /** {@return the writes of the key after version {@code v}, for a report} */
  public synchronized String describe(int k, long v) {
    List<long[]> history = versions.get(k);
    StringBuilder b = new StringBuilder("(versions after it: ");
    for (int i = (int) v + 1; i < Math.min(history.size(), v + 4); i++) {
      b.append('v').append(i).append(" ticks ").append(history.get(i)[0]).append('-');
      b.append(history.get(i)[1] == Long.MAX_VALUE ? "running" : history.get(i)[1]).append(' ');
    }
    return b.append(')').toString();
  }
}
