package io.github.chash.analysis;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.HashFunction;
import io.github.chash.ring.Ring;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Who owns which part of the hash space, for drawing a ring. The ring API places keys, not points,
 * so the map is drawn from sample keys: each key sits where the ring places it (its hash as an
 * unsigned fraction of the hash range) and colours its position with its owner. The circle is cut
 * into sectors; a sector takes the owner of the first sample key at or after its middle, clockwise.
 * With well-spread keys this shows the arcs to the sector resolution; where the keys leave gaps (a
 * weak hash over similar keys) the gap takes the next key's owner.
 */
public final class HashSpaceMap {
  private HashSpaceMap() {}

  /**
   * Returns the arcs, adjacent sectors of one owner merged, in clockwise order from 0.
   *
   * @param ring the ring
   * @param keys sample keys; at most {@code maxKeys} of them are used
   * @param maxKeys how many keys to place at most
   * @param sectors the resolution: how many equal sectors the circle is cut into
   * @return the arcs; empty when there are no keys
   */
  public static List<Arc> arcs(Ring ring, KeySource keys, int maxKeys, int sectors) {
    int n = Math.min(maxKeys, keys.size());
    if (n == 0 || ring.size() == 0) {
      return List.of();
    }
    HashFunction hash = ring.settings().hash();
    // 32-bit rings place a 64-bit hash by its top 32 bits; ketama by the first 4 MD5 bytes, which
    // are the low 32 bits of the little-endian 64-bit md5 value
    boolean ketama = ring.settings().algorithm() == Algorithm.KETAMA;
    int[] owners = KeySampler.owners(ring, keys, n);
    long[] packed = new long[n];
    // position in 43 bits above the owner index's 20 (top bit clear): one sort orders by position
    StringBuilder scratch = new StringBuilder(64);
    for (int i = 0; i < n; i++) {
      long h = hash.hash(keys.key(i, scratch));
      long position = hash.bits() >= 64 && !ketama ? h >>> 21 : (h & 0xFFFF_FFFFL) << 11;
      packed[i] = (position << 20) | owners[i];
    }
    Arrays.sort(packed);
    String[] ids = ring.nodes().stream().map(x -> x.id()).toArray(String[]::new);
    List<Arc> arcs = new ArrayList<>();
    int k = 0;
    for (int s = 0; s < sectors; s++) {
      double middle = (s + 0.5) / sectors;
      while (k < n && fraction(packed[k]) < middle) {
        k++;
      }
      String owner = ids[(int) (packed[k < n ? k : 0] & 0xFFFFF)];
      double start = (double) s / sectors;
      double end = (double) (s + 1) / sectors;
      Arc last = arcs.isEmpty() ? null : arcs.get(arcs.size() - 1);
      if (last != null && last.owner().equals(owner)) {
        arcs.set(arcs.size() - 1, new Arc(last.start(), end, owner));
      } else {
        arcs.add(new Arc(start, end, owner));
      }
    }
    return arcs;
  }

  private static double fraction(long packed) {
    return (packed >>> 20) / (double) (1L << 43);
  }
}
