package io.github.chash.ring;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ketama}: libketama's MD5 ring, in the variant of one client ({@link KetamaCompat}):
 * spymemcached 2.12.3's {@code KetamaNodeLocator} with {@code DefaultHashAlgorithm.KETAMA_HASH}
 * (the default), twemproxy 0.5.0 or libketama.
 *
 * <p>Node {@code X} gets {@code d} MD5 digests of {@code name(X) + "-" + i}, {@code i = 0..d-1},
 * each giving 4 points: bytes {@code 4h..4h+3} of the digest read little-endian. A key sits at the
 * first 4 bytes of {@code MD5(UTF-8 key)}, little-endian, and belongs to the first point at or
 * after it, wrapping. The compat variant gives {@code d} and {@code name(X)}.
 *
 * <p>spymemcached names a node by its socket address' {@code toString()} without a leading {@code
 * /}: for an address made from an IP literal ({@code new InetSocketAddress("10.0.0.1", 11211)})
 * that is {@code "10.0.0.1:11211"}, so a chash node with that id routes every key as spymemcached
 * does. A host name address prints as {@code "host/10.0.0.1:11211"}; use that as the id or the name
 * to match it. Points of different nodes on one position go to the node with the largest id, as
 * spymemcached's map keeps the last node put when its node list is in id order.
 */
final class KetamaRing extends AbstractRing {
  private final PointRing points;

  KetamaRing(RingSettings settings, List<Node> sortedNodes) {
    super(settings, sortedNodes);
    KetamaCompat compat = settings.compat();
    int[] digests = compat.digestCounts(sortedNodes, settings.pointsPerWeight());
    String[] names = pointNames(compat, sortedNodes);
    long[] pointCounts = new long[digests.length];
    for (int index = 0; index < digests.length; index++) {
      pointCounts[index] = 4L * digests[index];
    }
    this.points =
        PointRing.hashNodes(
            pointCounts,
            false,
            (index, packed, from, count) -> {
              // MD5 of the UTF-8 bytes of name + "-" + i, from one buffer: no string per digest
              byte[] name = PointRing.nameBuffer(names[index] + "-");
              int prefixLength = name.length - 10;
              byte[] digest = new byte[16];
              int at = from;
              for (int i = 0; i < digests[index]; i++) {
                Hashes.md5Digest(name, 0, Hashes.appendDecimal(name, prefixLength, i), digest, 0);
                for (int h = 0; h < 4; h++) {
                  packed[at++] = PointRing.pack((int) Hashes.littleEndian(digest, 4 * h, 4), index);
                }
              }
            });
  }

  /**
   * The string each node's digests derive from; two nodes with one would share every point.
   *
   * @throws IllegalArgumentException naming both nodes when two get the same
   */
  private static String[] pointNames(KetamaCompat compat, List<Node> nodes) {
    String[] names = new String[nodes.size()];
    Map<String, String> owners = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      names[i] = compat.pointName(nodes.get(i));
      String other = owners.putIfAbsent(names[i], nodes.get(i).id());
      if (other != null) {
        throw new IllegalArgumentException(
            "nodes \""
                + other
                + "\" and \""
                + nodes.get(i).id()
                + "\" would both hash as server \""
                + names[i]
                + "\" under ketama compat "
                + compat.configName());
      }
    }
    return names;
  }

  @Override
  PositionMap positionMap() {
    return points.positionMap("ketama-md5", key -> keyPosition(key) & 0xffffffffL);
  }

  /** The largest point position (unsigned), for tests. */
  int maxPoint() {
    return points.maxPosition();
  }

  private static int keyPosition(CharSequence key) {
    // the low half of md5's first 8 bytes read little-endian: the first 4 bytes, little-endian
    return (int) Hashes.md5(key);
  }

  @Override
  int owner(CharSequence key) {
    return points.ownerAt(keyPosition(key));
  }

  @Override
  int[] preference(CharSequence key, int n) {
    return points.distinctOwners(keyPosition(key), n, nodes.size());
  }

  @Override
  int firstUsable(CharSequence key, java.util.function.IntPredicate usable) {
    return points.firstUsableOwner(keyPosition(key), usable, nodes.size());
  }

  @Override
  double[] shares(java.util.function.IntPredicate usable) {
    return points.shares(nodes.size(), 1L << 32, usable);
  }

  @Override
  double[] shares() {
    return points.shares(nodes.size(), 1L << 32);
  }
}
