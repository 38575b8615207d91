package io.github.chash.ring;

import java.util.List;

/**
 * {@code ring}: the usual virtual-node ring over any hash function, in a {@link PointRing}.
 *
 * <p>Node {@code X} of weight {@code w} gets {@code w * pointsPerWeight} points; point {@code i}
 * sits at the top 32 bits of {@code hash(X.id() + "#" + i)} (the whole value for 32-bit hashes). A
 * key sits at the same 32 bits of its own hash. Points of different nodes on one position go to the
 * node with the smallest id.
 */
final class VirtualNodeRing extends AbstractRing {
  private final HashFunction hash;
  private final PointRing points;

  VirtualNodeRing(RingSettings settings, List<Node> sortedNodes) {
    super(settings, sortedNodes);
    this.hash = settings.hash();
    long[] pointCounts = new long[sortedNodes.size()];
    for (int index = 0; index < pointCounts.length; index++) {
      pointCounts[index] = (long) sortedNodes.get(index).weight() * settings.pointsPerWeight();
    }
    NamedHash.BytesHash bytesHash = hash instanceof NamedHash named ? named.utf8Bytes() : null;
    this.points =
        PointRing.hashNodes(
            pointCounts,
            true,
            (index, packed, from, pointCount) -> {
              String prefix = sortedNodes.get(index).id() + "#";
              if (bytesHash != null) {
                // hash the UTF-8 bytes of prefix + i from one buffer: no string per point
                byte[] name = PointRing.nameBuffer(prefix);
                int prefixLength = name.length - 10;
                for (int i = 0; i < pointCount; i++) {
                  int length = Hashes.appendDecimal(name, prefixLength, i);
                  int position = Hashes.top32(hash, bytesHash.hash(name, 0, length));
                  packed[from + i] = PointRing.pack(position, index);
                }
              } else {
                StringBuilder name = new StringBuilder(prefix);
                for (int i = 0; i < pointCount; i++) {
                  name.setLength(prefix.length());
                  int position = Hashes.top32(hash, hash.hash(name.append(i)));
                  packed[from + i] = PointRing.pack(position, index);
                }
              }
            });
  }

  private int keyPosition(CharSequence key) {
    return Hashes.top32(hash, hash.hash(key));
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
    return points.shares(nodes.size(), Hashes.positionCount(hash), usable);
  }

  @Override
  double[] shares() {
    return points.shares(nodes.size(), Hashes.positionCount(hash));
  }

  @Override
  PositionMap positionMap() {
    return points.positionMap("top32(" + hash.name() + ")", key -> keyPosition(key) & 0xffffffffL);
  }

  PointRing points() {
    return points;
  }
}
