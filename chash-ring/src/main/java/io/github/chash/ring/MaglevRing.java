package io.github.chash.ring;

import com.dynatrace.hash4j.hashing.Hashing;
import java.math.BigInteger;
import java.util.List;

/**
 * {@code maglev}: the Maglev lookup table (Eisenbud et al., "Maglev: A Fast and Reliable Software
 * Network Load Balancer", NSDI 2016, section 3.4).
 *
 * <p>The table size {@code M} is the first prime above {@code max(100 * nodes, 65536)}. Node {@code
 * X} walks its permutation {@code offset + j * skip (mod M)} with {@code offset = xxh3(id, seed 0)
 * mod M} and {@code skip = xxh3(id, seed 1) mod (M - 1) + 1}. Nodes take turns in id order, each
 * taking its next free slot, but a node stops once it holds its target {@code M * weight /
 * totalWeight} slots (largest remainders rounded up, ties to the smaller id), so every node holds
 * its weighted share to within one slot. A key goes to slot {@code (top32(hash(key)) * M) >>> 32}.
 */
final class MaglevRing extends AbstractRing {
  private final HashFunction hash;
  private final int[] table;
  private final int[] counts;

  MaglevRing(RingSettings settings, List<Node> sortedNodes) {
    super(settings, sortedNodes);
    this.hash = settings.hash();
    int n = sortedNodes.size();
    int size = tableSize(n);
    int[] targets = targets(sortedNodes, size);
    long[] offset = new long[n];
    long[] skip = new long[n];
    long[] next = new long[n];
    for (int i = 0; i < n; i++) {
      byte[] id = Hashes.utf8(sortedNodes.get(i).id());
      offset[i] = Long.remainderUnsigned(Hashing.xxh3_64(0).hashBytesToLong(id), size);
      skip[i] = Long.remainderUnsigned(Hashing.xxh3_64(1).hashBytesToLong(id), size - 1) + 1;
    }
    int[] table = new int[size];
    java.util.Arrays.fill(table, -1);
    int[] counts = new int[n];
    int filled = 0;
    while (filled < size) {
      for (int i = 0; i < n && filled < size; i++) {
        if (counts[i] >= targets[i]) {
          continue;
        }
        int slot;
        do {
          slot = (int) ((offset[i] + next[i] * skip[i]) % size);
          next[i]++;
        } while (table[slot] >= 0);
        table[slot] = i;
        counts[i]++;
        filled++;
      }
    }
    this.table = table;
    this.counts = counts;
  }

  static int tableSize(int nodes) {
    long min = Math.max(100L * nodes, 65536L);
    long prime = BigInteger.valueOf(min).nextProbablePrime().longValueExact();
    if (prime > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("maglev table for " + nodes + " nodes is too large");
    }
    return (int) prime;
  }

  /** Slots per node: the weighted share of {@code size}, rounded by largest remainder. */
  private static int[] targets(List<Node> nodes, int size) {
    long totalWeight = 0;
    for (Node node : nodes) {
      totalWeight += node.weight();
    }
    int[] targets = new int[nodes.size()];
    long[] remainders = new long[nodes.size()];
    int assigned = 0;
    for (int i = 0; i < targets.length; i++) {
      long scaled = (long) size * nodes.get(i).weight();
      targets[i] = (int) (scaled / totalWeight);
      remainders[i] = scaled % totalWeight;
      assigned += targets[i];
    }
    while (assigned < size) {
      int best = 0;
      for (int i = 1; i < targets.length; i++) {
        if (remainders[i] > remainders[best]) {
          best = i;
        }
      }
      targets[best]++;
      remainders[best] = -1;
      assigned++;
    }
    return targets;
  }

  private int slot(CharSequence key) {
    long position = Hashes.top32(hash, hash.hash(key)) & 0xffffffffL;
    return (int) ((position * table.length) >>> 32);
  }

  @Override
  int owner(CharSequence key) {
    return table[slot(key)];
  }

  /** The owner, then the next distinct nodes in the table after the key's slot. */
  @Override
  int[] preference(CharSequence key, int n) {
    int[] result = new int[n];
    boolean[] seen = new boolean[nodes.size()];
    int found = 0;
    int start = slot(key);
    for (int step = 0; step < table.length && found < n; step++) {
      int owner = table[(start + step) % table.length];
      if (!seen[owner]) {
        seen[owner] = true;
        result[found++] = owner;
      }
    }
    return result;
  }

  @Override
  int firstUsable(CharSequence key, java.util.function.IntPredicate usable) {
    int start = slot(key);
    for (int step = 1; step < table.length; step++) {
      int owner = table[(start + step) % table.length];
      if (usable.test(owner)) {
        return owner;
      }
    }
    return -1;
  }

  /** Each refused slot goes to the next usable slot's owner, as a lookup walks the table. */
  @Override
  double[] shares(java.util.function.IntPredicate usable) {
    double[] shares = new double[counts.length];
    int heir = -1;
    int[] heirs = new int[table.length];
    for (int pass = 0; pass < 2; pass++) {
      for (int i = table.length - 1; i >= 0; i--) {
        if (usable.test(table[i])) {
          heir = table[i];
        }
        heirs[i] = heir;
      }
    }
    if (heir < 0) {
      return shares;
    }
    for (int h : heirs) {
      shares[h] += 1.0 / table.length;
    }
    return shares;
  }

  @Override
  PositionMap positionMap() {
    return PositionMap.ofSlots(
        "top32(" + hash.name() + ")",
        key -> Hashes.top32(hash, hash.hash(key)) & 0xffffffffL,
        table);
  }

  @Override
  double[] shares() {
    double[] shares = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      shares[i] = counts[i] / (double) table.length;
    }
    return shares;
  }
}
