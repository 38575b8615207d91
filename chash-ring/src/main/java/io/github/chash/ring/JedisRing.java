package io.github.chash.ring;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jedis}: the ring of Jedis 3.x {@code ShardedJedis} ({@code redis.clients.jedis.util.
 * Sharded}) and of Jedis 4.x/5.x {@code JedisSharding} ({@code ShardedConnectionProvider}), with
 * {@code Hashing.MURMUR_HASH}.
 *
 * <p>The shard at list position {@code i} (the nodes in config order) of weight {@code w} gets
 * {@code 160 * w} points: MurmurHash64A with seed {@code 0x1234ABCD} of the UTF-8 bytes of {@code
 * "SHARD-" + i + "-NODE-" + n}, or of {@code name + "*" + n} for a named shard, {@code n = 0 ..
 * 160w-1}. A key hashes the same way (only its first {@code {tag}} when key tags are on, Jedis'
 * {@code Sharded.DEFAULT_KEY_TAG_PATTERN}) and belongs to the first point at or after its hash in
 * signed {@code long} order, wrapping to the first point: Jedis' {@code TreeMap.tailMap}. On a
 * point shared by two shards the later shard wins, as it is put into the map last.
 *
 * <p>Lookups read a bucket index on the top bits of the position, then scan the sorted positions:
 * O(1) expected. The placement depends on the node order, like {@code jump}'s.
 */
final class JedisRing extends AbstractRing {
  /** Jedis' points per unit of weight. */
  static final int POINTS_PER_WEIGHT = 160;

  /** Jedis' {@code Sharded.DEFAULT_KEY_TAG_PATTERN}: the first {@code {...}} of the key. */
  private static final Pattern KEY_TAG = Pattern.compile("\\{(.+?)\\}");

  /** Most bits of the bucket index: beyond a million buckets a large ring scans a little more. */
  private static final int MAX_BUCKET_BITS = 20;

  private final boolean keyTags;

  /** The point positions, sorted, then a sentinel {@code Long.MAX_VALUE}. */
  private final long[] positions;

  /** The owner of each position; the sentinel's is the first point's (the wrap-around). */
  private final int[] owners;

  /** The index of the first point of each bucket of {@code (position ^ 2^63) >>> shift}. */
  private final int[] buckets;

  private final int shift;
  private final int size;

  JedisRing(RingSettings settings, List<Node> orderedNodes) {
    super(settings, orderedNodes);
    this.keyTags = settings.keyTags();
    long[] counts = new long[orderedNodes.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = (long) POINTS_PER_WEIGHT * orderedNodes.get(i).weight();
    }
    long total = Arrays.stream(counts).sum();
    RingSettings.checkTotalPoints(total);
    long[][] byNode = new long[counts.length][];
    long[] all = new long[(int) total];
    int at = 0;
    for (int i = 0; i < counts.length; i++) {
      byNode[i] = points(orderedNodes.get(i), i, (int) counts[i]);
      System.arraycopy(byNode[i], 0, all, at, byNode[i].length);
      at += byNode[i].length;
    }
    Arrays.sort(all);
    int unique = 0;
    for (int i = 0; i < all.length; i++) {
      if (unique == 0 || all[unique - 1] != all[i]) {
        all[unique++] = all[i];
      }
    }
    this.size = unique;
    this.positions = Arrays.copyOf(all, unique + 1);
    positions[unique] = Long.MAX_VALUE;
    this.owners = new int[unique + 1];
    // put in list order, as Jedis fills its TreeMap: on a shared point the later shard stays
    for (int i = 0; i < byNode.length; i++) {
      for (long p : byNode[i]) {
        owners[Arrays.binarySearch(positions, 0, unique, p)] = i;
      }
    }
    owners[unique] = owners[0];
    // about 2 points a bucket, at most 2^MAX_BUCKET_BITS buckets (4 MB)
    int bits =
        Math.min(MAX_BUCKET_BITS, Math.max(1, 31 - Integer.numberOfLeadingZeros(unique / 2 + 1)));
    this.shift = 64 - bits;
    this.buckets = new int[1 << bits];
    int p = 0;
    for (int b = 0; b < buckets.length; b++) {
      while (p < unique && bucket(positions[p]) < b) {
        p++;
      }
      buckets[b] = p;
    }
  }

  /** The positions of one shard's points. */
  private static long[] points(Node node, int index, int count) {
    String prefix = node.name().map(name -> name + "*").orElse("SHARD-" + index + "-NODE-");
    long[] points = new long[count];
    byte[] name = PointRing.nameBuffer(prefix);
    int prefixLength = name.length - 10;
    for (int n = 0; n < count; n++) {
      int length = Hashes.appendDecimal(name, prefixLength, n);
      points[n] = MurmurHash64A.hash(name, 0, length, MurmurHash64A.JEDIS_SEED);
    }
    return points;
  }

  private int bucket(long position) {
    return (int) ((position ^ Long.MIN_VALUE) >>> shift);
  }

  /** Jedis' key hash: of the key, or of its first tag when key tags are on. */
  long keyHash(CharSequence key) {
    if (keyTags) {
      Matcher m = KEY_TAG.matcher(key);
      if (m.find()) {
        return MurmurHash64A.hash(m.group(1), MurmurHash64A.JEDIS_SEED);
      }
    }
    return MurmurHash64A.hash(key, MurmurHash64A.JEDIS_SEED);
  }

  /** The index of the first point at or after {@code hash}; {@code size} past the last. */
  private int search(long hash) {
    int i = buckets[bucket(hash)];
    long[] positions = this.positions;
    // the sentinel is Long.MAX_VALUE, at least every hash, so this stops
    while (positions[i] < hash) {
      i++;
    }
    return i;
  }

  @Override
  int owner(CharSequence key) {
    return owners[search(keyHash(key))];
  }

  @Override
  int[] preference(CharSequence key, int n) {
    int[] result = new int[n];
    boolean[] seen = new boolean[nodes.size()];
    int found = 0;
    int start = search(keyHash(key));
    for (int step = 0; step < size && found < n; step++) {
      int owner = owners[(start + step) % size];
      if (!seen[owner]) {
        seen[owner] = true;
        result[found++] = owner;
      }
    }
    // shards whose every point was taken by a later shard follow in list order
    for (int i = 0; found < n; i++) {
      if (!seen[i]) {
        result[found++] = i;
      }
    }
    return result;
  }

  @Override
  int firstUsable(CharSequence key, IntPredicate usable) {
    int start = search(keyHash(key));
    for (int step = 0; step < size; step++) {
      int owner = owners[(start + step) % size];
      if (usable.test(owner)) {
        return owner;
      }
    }
    for (int i = 0; i < nodes.size(); i++) {
      if (usable.test(i)) {
        return i; // a shard every point of which a later shard took
      }
    }
    return -1;
  }

  @Override
  double[] shares() {
    return shares(owner -> true);
  }

  @Override
  double[] shares(IntPredicate usable) {
    // a refused shard's arcs go to the next usable point clockwise; two passes backwards wrap
    int[] heir = new int[size];
    int next = -1;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = size - 1; i >= 0; i--) {
        if (usable.test(owners[i])) {
          next = owners[i];
        }
        heir[i] = next;
      }
    }
    double[] shares = new double[nodes.size()];
    if (next < 0) {
      return shares;
    }
    // the arc ending at point i starts after point i - 1; point 0's wraps from the last point
    double total = 0;
    for (int i = 0; i < size; i++) {
      long length = i == 0 ? positions[0] - positions[size - 1] : positions[i] - positions[i - 1];
      double arc = size == 1 ? 0x1p64 : unsigned(length);
      shares[heir[i]] += arc;
      total += arc;
    }
    // the arcs sum to 2^64 exactly; dividing by their double sum keeps the shares' sum at 1
    for (int i = 0; i < shares.length; i++) {
      shares[i] /= total;
    }
    return shares;
  }

  private static double unsigned(long v) {
    return (double) (v >>> 1) * 2.0 + (v & 1);
  }
}
