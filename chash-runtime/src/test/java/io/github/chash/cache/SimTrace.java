package io.github.chash.cache;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened in one run, in sim-time order: operations, requests applied on servers, ring
 * changes, faults. Each entry names the key it concerns (or none: a world event). Its hash is the
 * run's fingerprint for the determinism check: every entry with its time and its place in its
 * actor's own sequence, whatever order actors that ran together (a writer released by a fill's
 * stripe) appended in. Written only by the running actor or the scheduler, one at a time.
 */
final class SimTrace {
  record Entry(long time, String who, String key, String text) {
    @Override
    public String toString() {
      return String.format("%10.6fs %-6s %s", time / 1e9, who, text);
    }
  }

  private final SimScheduler sched;
  private final List<Entry> entries = new ArrayList<>();
  private long hash = 1125899906842597L;
  private final boolean keepAll;

  SimTrace(SimScheduler sched, boolean keepAll) {
    this.sched = sched;
    this.keepAll = keepAll;
  }

  synchronized void add(String who, String key, String text) {
    long t = sched.now();
    int seq = seqByWho.merge(who, 1, Integer::sum);
    long h = t;
    h = 31 * h + who.hashCode();
    h = 31 * h + seq;
    h = 31 * h + (key == null ? 0 : key.hashCode());
    h = 31 * h + text.hashCode();
    // a sum of mixed entries: each actor's order counts (its sequence number is in the entry), the
    // order in which two actors released together append does not
    hash += SimScheduler.mix(h, 0x9E3779B97F4A7C15L);
    entries.add(new Entry(t, who, key, text));
  }

  private final java.util.Map<String, Integer> seqByWho = new java.util.HashMap<>();

  /**
   * An entry outside the hash: what the real code does in an order of its own (it closes the nodes
   * a sweep retired in the order of a hash set of slots).
   */
  synchronized void addUnhashed(String who, String key, String text) {
    entries.add(new Entry(sched.now(), who, key, text));
  }

  synchronized long hash() {
    return hash;
  }

  synchronized int size() {
    return entries.size();
  }

  /** The run's entries of the key and every world event, the last {@code max} of them. */
  synchronized List<Entry> of(String key, int max) {
    List<Entry> out = new ArrayList<>();
    for (int i = entries.size() - 1; i >= 0 && out.size() < max; i--) {
      Entry e = entries.get(i);
      if (e.key == null || e.key.equals(key)) {
        out.add(0, e);
      }
    }
    return out;
  }

  synchronized List<Entry> all() {
    return new ArrayList<>(entries);
  }

  boolean keepAll() {
    return keepAll;
  }
}
