package io.github.chash.ring;

import java.util.List;

/**
 * {@code ring}: the seeds' virtual-node ring over any hash function, in a {@link PointRing}.
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
    long total = 0;
    for (Node node : sortedNodes) {
      total += (long) node.weight() * settings.pointsPerWeight();
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "ring would need " + total + " virtual points; lower pointsPerWeight or the weights");
    }
    long[] packed = new long[(int) total];
    int count = 0;
    for (int index = 0; index < sortedNodes.size(); index++) {
      Node node = sortedNodes.get(index);
      String prefix = node.id() + "#";
      int pointCount = node.weight() * settings.pointsPerWeight();
      for (int i = 0; i < pointCount; i++) {
        int position = Hashes.top32(hash, hash.hash(prefix + i));
        packed[count++] = PointRing.pack(position, index);
      }
    }
    this.points = PointRing.build(packed, count, true);
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
  double[] shares() {
    return points.shares(nodes.size(), Hashes.positionCount(hash));
  }

  @Override
  PositionMap positionMap() {
    return points.positionMap("top32(" + hash.name() + ")", Hashes.positionCount(hash));
  }

  PointRing points() {
    return points;
  }
}
