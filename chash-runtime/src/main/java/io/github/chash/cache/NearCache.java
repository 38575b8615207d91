package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.NearConfig;
import io.github.chash.config.NearInvalidation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One cache's near cache: values read from remote nodes, kept in this JVM (a Caffeine cache bounded
 * by {@code near.maximumSize}), so that a hit costs about what a local shard's does.
 *
 * <p>An entry is served only while everything it was read under still holds: the same routing
 * generation (an ejection, a readmission or a ring change drops every entry of the cache), the same
 * tracking session of the node it came from ({@link NodeTracking}: a lost channel drops every entry
 * read from that node), the type it was decoded as, and its deadline: {@code near.ttl} after it was
 * read, or sooner when the node's copy expires sooner. A key reported changed ({@link #invalidate})
 * goes at once.
 *
 * <p>A read that missed here and asks the node may fill the entry only if nothing invalidated the
 * key since before it asked: it takes a {@link Ticket} first (the key's stripe stamp, the node's
 * session, the routing generation), and the fill checks all three again inside the map's compute of
 * the key, which an invalidation's remove of the key also goes through. An invalidation bumps the
 * stamp before it removes the entry, so either the fill sees the new stamp and stores nothing, or
 * it stored before the remove, which then drops it: a value read before a change is never left
 * behind by the change's report (the Caffeine-based near caches' sequence-number rule). Writes of
 * this JVM invalidate their key before and after their node call ({@link NodeCalls}), so a read
 * that begins after a write completed never gets an older value from here.
 *
 * <p>Entries hold their deadlines, checked against the {@link CoarseClock} on a hit, rather than
 * Caffeine's variable expiry (see {@link LocalCacheNode} for why). Thread-safe.
 */
final class NearCache {
  private static final int STRIPES = 1024;

  /** One stamp per 64-byte line, as {@link KeyStripes}. */
  private static final int SPREAD = 8;

  private final Cache<String, Entry> entries;
  private final AtomicLongArray stamps = new AtomicLongArray(STRIPES * SPREAD);
  private final LongAdder hits = new LongAdder();
  private final Router router;

  /** Deadlines are taken from this clock when an entry is filled. */
  private final Ticker ticker;

  /** Hits check deadlines against this one: the coarse clock, or {@link #ticker} in tests. */
  private final Ticker readTicker;

  private final long ttlNanos;

  /** {@code near.invalidation: ttl}: nodes without a channel fill too, bounded by the ttl. */
  private final boolean untrackedFill;

  /** A value as read from a node, with what it was read under. */
  static final class Entry {
    final Object value;
    final ValueType type;
    final NodeTracking from;
    final long session;
    final long generation;
    final long deadline;

    /** When the node's copy expires, or {@link Long#MAX_VALUE} when unknown or never. */
    final long remoteDeadline;

    private Entry(Object value, ValueType type, Ticket ticket, long deadline, long remoteDeadline) {
      this.value = value;
      this.type = type;
      this.from = ticket.from;
      this.session = ticket.session;
      this.generation = ticket.generation;
      this.deadline = deadline;
      this.remoteDeadline = remoteDeadline;
    }
  }

  /** What a read that may fill the key took before it asked the node. */
  static final class Ticket {
    final NodeTracking from;
    final long session;
    final long generation;
    final long stamp;

    private Ticket(NodeTracking from, long session, long generation, long stamp) {
      this.from = from;
      this.session = session;
      this.generation = generation;
      this.stamp = stamp;
    }
  }

  NearCache(NearConfig config, Router router, Ticker ticker, Ticker readTicker) {
    this.router = router;
    this.ticker = ticker;
    this.readTicker = readTicker;
    this.ttlNanos = nanos(config.ttl());
    this.untrackedFill = config.invalidation() == NearInvalidation.TTL;
    this.entries = Caffeine.newBuilder().maximumSize(config.maximumSize()).build();
  }

  /** Sampled lookups are drawn anew each window of 2^23 ns (8.4 ms, about a coarse clock tick). */
  private static final int WINDOW_SHIFT = 23;

  /** A lookup is sampled when the top bits of its mix are 0: one in NEAR_HIT_SAMPLING. */
  private static final int SAMPLE_SHIFT =
      Integer.SIZE - Integer.numberOfTrailingZeros(CacheRecorder.NEAR_HIT_SAMPLING);

  /**
   * {@return whether a lookup of {@code routingKey} at {@code now} is one of the timed ones} Each
   * window draws one key in {@link CacheRecorder#NEAR_HIT_SAMPLING} from the key's hash (which the
   * lookup computes anyway: {@code String} keeps it) mixed with the window's number read off {@link
   * #readTicker}: the draw costs a multiply, where a random number per hit ({@code
   * ThreadLocalRandom}) measured 3 ns, a tenth of the hit. Over time every key is timed in one
   * window in that many, a hot one as often as a cold one, so the sample is not biased to the keys
   * that happen to be drawn first.
   */
  private static boolean sampled(String routingKey, long now) {
    int window = (int) (now >>> WINDOW_SHIFT);
    return ((routingKey.hashCode() + window) * 0x9E3779B9) >>> SAMPLE_SHIFT == 0;
  }

  /**
   * {@return the key's value if an entry may serve it in {@code r}, else null} Counts a hit, and
   * times it in {@code stats} when it is {@linkplain #sampled sampled}.
   */
  Object value(Routing r, String routingKey, ValueType type, StatsCounter stats) {
    Entry e = hit(r, routingKey, type, stats);
    return e == null ? null : e.value;
  }

  /**
   * {@link #value} with the time the node's copy has left (null when unknown), for refresh-ahead.
   */
  CacheNode.StoredEntry entry(Routing r, String routingKey, ValueType type, StatsCounter stats) {
    Entry e = hit(r, routingKey, type, stats);
    if (e == null) {
      return null;
    }
    Duration left =
        e.remoteDeadline == Long.MAX_VALUE
            ? null
            : Duration.ofNanos(Math.max(0, e.remoteDeadline - readTicker.read()));
    return new CacheNode.StoredEntry(e.value, left);
  }

  /**
   * The entry that may serve the key, timed when sampled: the coarse clock is read once, for the
   * draw and the deadline both (a second read measured in the hit's cost).
   */
  private Entry hit(Routing r, String routingKey, ValueType type, StatsCounter stats) {
    long now = readTicker.read();
    long started =
        stats.timed && sampled(routingKey, now) ? System.nanoTime() : StatsCounter.UNTIMED;
    Entry e = valid(r, routingKey, type, now);
    if (e != null) {
      stats.nearHit(started);
    }
    return e;
  }

  private Entry valid(Routing r, String routingKey, ValueType type, long now) {
    Entry e = entries.getIfPresent(routingKey);
    if (e == null) {
      return null;
    }
    if (e.generation != r.generation || e.session != e.from.session() || now - e.deadline >= 0) {
      entries.asMap().remove(routingKey, e);
      return null;
    }
    if (e.type != type && !e.type.equals(type)) {
      return null; // decoded as another type: the read decodes it again, and the fill replaces it
    }
    hits.increment();
    return e;
  }

  /**
   * {@return what a read of the key on {@code target} must take before it asks the node, if its
   * answer may be kept; null when it may not} It may when the node's tracking is on, or, for a
   * remote node without a channel, when the user accepts staleness up to the near ttl ({@code
   * near.invalidation: ttl}). A local node's values are never kept: it is as near as this.
   */
  Ticket ticket(Routing r, NodeSlot target, String routingKey) {
    NodeTracking tracking = target.tracking;
    long session = tracking.session();
    boolean fillable =
        tracking.tracked
            ? NodeTracking.on(session)
            : untrackedFill && !(target.node instanceof LocalCacheNode);
    return fillable
        ? new Ticket(tracking, session, r.generation, stamps.get(stripe(routingKey)))
        : null;
  }

  /**
   * Keeps what the read under {@code ticket} got from the node, unless the key was invalidated, the
   * node's session ended or the routing changed since the ticket was taken.
   */
  void fill(Ticket ticket, String routingKey, ValueType type, CacheNode.StoredEntry read) {
    long now = ticker.read();
    long lifetime = ttlNanos;
    long remoteDeadline = Long.MAX_VALUE;
    if (read.ttl() != null) {
      long left = nanos(read.ttl());
      if (left <= 0) {
        return;
      }
      remoteDeadline = now + left;
      lifetime = Math.min(lifetime, left);
    }
    Entry fresh = new Entry(read.value(), type, ticket, now + lifetime, remoteDeadline);
    int stripe = stripe(routingKey);
    entries
        .asMap()
        .compute(
            routingKey,
            (k, old) ->
                stamps.get(stripe) == ticket.stamp
                        && ticket.from.session() == ticket.session
                        && router.current().generation == ticket.generation
                    ? fresh
                    : old);
  }

  /**
   * The key changed (reported by a node, or written in this JVM): a read under way must not fill
   * what it got, and the entry goes. The stamp moves first; see the class comment.
   */
  void invalidate(String routingKey) {
    stamps.incrementAndGet(stripe(routingKey));
    entries.invalidate(routingKey);
  }

  /** Every key changed (a clear of the cache): no read under way fills, and every entry goes. */
  void invalidateAll() {
    for (int i = 0; i < STRIPES; i++) {
      stamps.incrementAndGet(i * SPREAD);
    }
    entries.invalidateAll();
  }

  /** Hits answered here. */
  long hits() {
    return hits.sum();
  }

  private static int stripe(String routingKey) {
    int h = routingKey.hashCode();
    return ((h ^ (h >>> 16)) & (STRIPES - 1)) * SPREAD;
  }

  private static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE >>> 1; // about 146 years: never, without overflowing a deadline
    }
  }
}
