package io.github.chash.ring;

import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * A ring's placement as a step function of a key's 32-bit position: the position range {@code [0,
 * 2^32)} cut into segments, each owned by one node. Two rings whose {@link #keyPosition()} is the
 * same put every key at the same position, so merging their maps gives exactly which part of the
 * key space changes owner, with no sampling.
 *
 * <p>Available for {@code ring} and {@code ketama} (the arcs between virtual points) and {@code
 * maglev} (the table slots); {@code rendezvous} and {@code jump} place keys by a per-key
 * computation that has no such map. Immutable and thread-safe.
 */
public final class PositionMap {
  /** One past the largest position: positions are unsigned 32-bit values. */
  public static final long POSITIONS = 1L << 32;

  private final String keyPosition;
  private final ToLongFunction<CharSequence> position;

  /** Segment ends and owners, or null when the map is a view of a ring's points. */
  private final long[] ends;

  private final int[] owners;

  /**
   * A ring's points packed by {@link PointRing#pack} (segment {@code i} ends at point {@code i}),
   * shared with the ring rather than copied: a map of 20 million points costs nothing. Null for a
   * map of slots.
   */
  private final long[] points;

  private final int pointCount;

  /** The owner of the segment after the last point (keys that wrap), or -1 when there is none. */
  private final int wrapOwner;

  PositionMap(
      String keyPosition, ToLongFunction<CharSequence> position, long[] ends, int[] owners) {
    this.keyPosition = keyPosition;
    this.position = position;
    this.ends = ends;
    this.owners = owners;
    this.points = null;
    this.pointCount = 0;
    this.wrapOwner = -1;
  }

  /**
   * The map of {@code pointCount} sorted points: segment {@code i} ends at point {@code i}, and
   * when the last point lies before the last position, one more segment up to it belongs to {@code
   * wrapOwner} (the first point's owner). {@code points} is read, never written.
   */
  PositionMap(
      String keyPosition,
      ToLongFunction<CharSequence> position,
      long[] points,
      int pointCount,
      int wrapOwner) {
    this.keyPosition = keyPosition;
    this.position = position;
    this.ends = null;
    this.owners = null;
    this.points = points;
    this.pointCount = pointCount;
    this.wrapOwner = wrapOwner;
  }

  /**
   * {@return the ring's position map, or empty when its algorithm has none ({@code rendezvous},
   * {@code jump}, an empty ring)} Building it costs O(points) or O(table size).
   *
   * @param ring the ring
   */
  public static Optional<PositionMap> of(Ring ring) {
    return ring instanceof AbstractRing r ? Optional.ofNullable(r.positionMap()) : Optional.empty();
  }

  /**
   * {@return how a key's position is computed, for example {@code top32(xxh3)} or {@code
   * ketama-md5}: two maps are comparable position by position only when this is equal}
   */
  public String keyPosition() {
    return keyPosition;
  }

  /**
   * {@return the key's position, unsigned, in {@code [0, 2^32)}: the key belongs to the owner of
   * the segment holding it, exactly as {@link Ring#locate(CharSequence)} places it} One hash, no
   * ring lookup, so that many keys can be placed by sorting their positions and walking the
   * segments once.
   *
   * @param key the key
   */
  public long position(CharSequence key) {
    return position.applyAsLong(key);
  }

  /** {@return the number of segments} */
  public int size() {
    if (points == null) {
      return ends.length;
    }
    return wrapOwner < 0 ? pointCount : pointCount + 1;
  }

  /**
   * {@return the last position (inclusive, unsigned, as a non-negative long) of segment {@code i};
   * segment {@code i} starts one after the end of segment {@code i - 1} (segment 0 at 0), and the
   * last segment ends at {@code 2^32 - 1}}
   *
   * @param i the segment's index, from 0 to {@code size() - 1}
   */
  public long end(int i) {
    if (points == null) {
      return ends[i];
    }
    return i < pointCount ? PointRing.unsignedPosition(points[i]) : POSITIONS - 1;
  }

  /**
   * {@return the owner of segment {@code i}, as an index into the ring's {@link Ring#nodes()}}
   *
   * @param i the segment's index, from 0 to {@code size() - 1}
   */
  public int owner(int i) {
    if (points == null) {
      return owners[i];
    }
    return i < pointCount ? (int) points[i] : wrapOwner;
  }

  /** The map of a table of {@code owners.length} equal slots over the positions (maglev). */
  static PositionMap ofSlots(
      String keyPosition, ToLongFunction<CharSequence> position, int[] owners) {
    long size = owners.length;
    long[] ends = new long[owners.length];
    for (int s = 0; s < owners.length; s++) {
      // slot(p) = floor(p * size / 2^32): slot s holds p < (s + 1) * 2^32 / size
      ends[s] = ((s + 1) * POSITIONS + size - 1) / size - 1;
    }
    return new PositionMap(keyPosition, position, ends, owners.clone());
  }
}
