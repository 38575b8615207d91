package io.github.chash.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The keys whose copy on one node this JVM cannot vouch for by the routing alone: a write that may
 * or may not have landed ({@link Mark#unknown}), and copies written on a node that is not the key's
 * home while the home was out (a mark with the routing generation they were written in, trusted
 * only as {@link Routing#readable} says). A read of a marked key that its mark does not vouch for
 * is a miss, so no failure or move can make an older value readable.
 *
 * <p>Marks are few (outages and failed writes only); the marks of all nodes of a manager share one
 * bound. A node without any costs its readers one volatile read. Thread-safe.
 */
final class CopyMarks {

  private final ConcurrentHashMap<String, Mark> marks = new ConcurrentHashMap<>();
  private final AtomicInteger size = new AtomicInteger();
  private final AtomicInteger managerTotal;
  private final int managerLimit;

  /** A mark: the routing generation an off-home copy was written in, or -1 for {@link #unknown}. */
  static final class Mark {
    final long generation;

    private Mark(long generation) {
      this.generation = generation;
    }

    /**
     * A new mark of a copy that may be older than the last write, or missing: a read must not trust
     * it. Each is its own object, so that forgetting one ({@link #forget(String, Mark)}) never
     * forgets a newer one.
     */
    static Mark unknown() {
      return new Mark(-1);
    }

    /** Whether the copy's state is unknown (not an off-home copy of a known generation). */
    boolean isUnknown() {
      return generation < 0;
    }

    /** Whether the copy may be read when only copies written since {@code generation} are. */
    boolean trustedSince(long trustedSince) {
      return generation >= 0 && generation >= trustedSince;
    }
  }

  /**
   * @param managerTotal the marks of every node of the manager
   * @param managerLimit how many marks the manager may hold in all
   */
  CopyMarks(AtomicInteger managerTotal, int managerLimit) {
    this.managerTotal = managerTotal;
    this.managerLimit = managerLimit;
  }

  /** The hot path's check: no mark on this node. */
  boolean isEmpty() {
    return size.get() == 0;
  }

  Mark get(String key) {
    return marks.get(key);
  }

  /**
   * Marks the key unknown before its write to a node that is not its home. Returns false, marking
   * nothing, when the manager holds as many marks as it may: the write must then be skipped, since
   * a copy off its home that no mark tracks must never exist.
   */
  boolean beginOffHomeWrite(String key) {
    return mark(key, Mark.unknown());
  }

  /**
   * The copy's state is unknown (a write or a delete failed): reads miss until a write lands.
   * Returns false when there was no room to say so; the caller must then take the node out, which
   * empties it before it serves again.
   */
  boolean unknown(String key) {
    return mark(key, Mark.unknown());
  }

  /**
   * {@return the key's mark as a write is sent, null when none} What the write's landing may
   * replace or forget, and nothing newer: a write that fails after this one was sent marks the key
   * again, and this one's landing must keep that mark (its value may be the older one there).
   */
  Mark current(String key) {
    return isEmpty() ? null : marks.get(key);
  }

  /**
   * An off-home write that {@link #beginOffHomeWrite} marked landed in routing generation {@code
   * g}: its mark {@code sent} (its {@link #current} when sent) now vouches for the copy, unless a
   * newer mark replaced it meanwhile.
   */
  void written(String key, long g, Mark sent) {
    if (sent != null) {
      marks.computeIfPresent(key, (k, old) -> old == sent ? new Mark(g) : old);
    }
  }

  /** A write landed on the key's home, or a delete landed: no mark is needed any more. */
  void forget(String key) {
    if (!isEmpty()) {
      marks.computeIfPresent(key, (k, old) -> release());
    }
  }

  /**
   * Removes the key's mark if it is still {@code mark} (a newer write keeps its own); nothing when
   * {@code mark} is null (a write sent while the key had no mark forgets none made since).
   */
  void forget(String key, Mark mark) {
    if (mark != null) {
      marks.computeIfPresent(key, (k, old) -> old == mark ? release() : old);
    }
  }

  /** The node was emptied: nothing is left to vouch for. */
  void clear() {
    marks.forEach(this::forget);
  }

  /** Each marked key with its mark, weakly consistent. */
  void forEach(BiConsumer<String, Mark> action) {
    marks.forEach(action);
  }

  private boolean mark(String key, Mark mark) {
    boolean[] room = {true};
    marks.compute(
        key,
        (k, old) -> {
          if (old != null) {
            return mark;
          }
          if (managerTotal.incrementAndGet() > managerLimit) {
            managerTotal.decrementAndGet();
            room[0] = false;
            return null;
          }
          size.incrementAndGet();
          return mark;
        });
    return room[0];
  }

  private Mark release() {
    size.decrementAndGet();
    managerTotal.decrementAndGet();
    return null;
  }
}
