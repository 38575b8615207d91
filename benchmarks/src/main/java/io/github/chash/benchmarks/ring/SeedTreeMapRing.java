package io.github.chash.benchmarks.ring;

import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The seed articles' ring, as a peer to measure against (not chash code): FNV1_32 variant hash over
 * UTF-16 chars with the final shifts and {@code Math.abs}, 160 virtual nodes per server named
 * {@code server + "&&VN" + i}, a {@code TreeMap<Integer, String>} and a {@code tailMap} lookup.
 *
 * <p>One deliberate difference: the map's value is the physical server rather than the virtual-node
 * name, so a lookup does not pay for the seeds' {@code substring}; this only makes the peer faster.
 * Later points with an equal hash overwrite earlier ones, as {@code TreeMap.put} does in the seeds.
 */
final class SeedTreeMapRing {
  static final int VIRTUAL_NODES = 160;

  private final SortedMap<Integer, String> virtualNodes = new TreeMap<>();

  SeedTreeMapRing(Collection<String> servers) {
    for (String server : servers) {
      for (int i = 0; i < VIRTUAL_NODES; i++) {
        virtualNodes.put(hash(server + "&&VN" + i), server);
      }
    }
  }

  /** The server for a key: first virtual node clockwise from the key's hash, wrapping around. */
  String get(String key) {
    int hash = hash(key);
    SortedMap<Integer, String> tail = virtualNodes.tailMap(hash);
    Integer point = tail.isEmpty() ? virtualNodes.firstKey() : tail.firstKey();
    return virtualNodes.get(point);
  }

  /** Number of distinct virtual points (after hash collisions). */
  int points() {
    return virtualNodes.size();
  }

  /** The underlying map, for memory measurement. */
  Map<Integer, String> map() {
    return virtualNodes;
  }

  /** The seeds' {@code getHash}: FNV1_32 with extra avalanche shifts, made non-negative. */
  static int hash(String str) {
    final int p = 16777619;
    int hash = (int) 2166136261L;
    for (int i = 0; i < str.length(); i++) {
      hash = (hash ^ str.charAt(i)) * p;
    }
    hash += hash << 13;
    hash ^= hash >> 7;
    hash += hash << 3;
    hash ^= hash >> 17;
    hash += hash << 5;
    if (hash < 0) {
      hash = Math.abs(hash);
    }
    return hash;
  }
}
