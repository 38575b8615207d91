package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PointRingTest {

  /** The first point at or after h (unsigned), wrapping: the definition the index must honour. */
  private static int expectedOwner(int[] positions, int[] owners, int h) {
    int best = -1;
    for (int i = 0; i < positions.length; i++) {
      if (Integer.compareUnsigned(positions[i], h) >= 0
          && (best < 0 || Integer.compareUnsigned(positions[i], positions[best]) < 0)) {
        best = i;
      }
    }
    if (best < 0) {
      for (int i = 0; i < positions.length; i++) {
        if (best < 0 || Integer.compareUnsigned(positions[i], positions[best]) < 0) {
          best = i;
        }
      }
    }
    return owners[best];
  }

  @Test
  void ownerAt_matchesLinearDefinition_forAllSizes() {
    Random random = new Random(7);
    for (int size : new int[] {1, 2, 3, 4, 5, 17, 64, 1000}) {
      int[] positions = new int[size];
      int[] owners = new int[size];
      long[] packed = new long[size];
      for (int i = 0; i < size; i++) {
        positions[i] = random.nextInt();
        owners[i] = i % 7;
        packed[i] = PointRing.pack(positions[i], owners[i]);
      }
      PointRing ring = PointRing.build(packed, size, true);
      for (int k = 0; k < 20_000; k++) {
        int h =
            k < 4 ? new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}[k] : random.nextInt();
        assertThat(ring.ownerAt(h)).isEqualTo(expectedOwner(positions, owners, h));
      }
      for (int i = 0; i < size; i++) {
        assertThat(ring.ownerAt(positions[i])).as("exact hit").isEqualTo(owners[i]);
        for (int near : new int[] {positions[i] - 1, positions[i] + 1}) {
          assertThat(ring.ownerAt(near)).isEqualTo(expectedOwner(positions, owners, near));
        }
      }
    }
  }

  @Test
  void ownerAt_matchesLinearDefinition_atEverySlotEdge_withAndWithoutTheSlotTable() {
    Random random = new Random(11);
    // 300 points of owners below 127 get the slot table; 300 points of owners up to 199 and
    // 20,000 points are searched
    for (int[] shape : new int[][] {{300, 7}, {300, 200}, {20_000, 7}}) {
      int size = shape[0];
      int[] positions = new int[size];
      int[] owners = new int[size];
      long[] packed = new long[size];
      for (int i = 0; i < size; i++) {
        // clustered positions, so that slots of one owner and slots of several both occur
        positions[i] = (random.nextInt(64) << 26) + random.nextInt(1 << 12);
        owners[i] = i % shape[1];
        packed[i] = PointRing.pack(positions[i], owners[i]);
      }
      PointRing ring = PointRing.build(packed, size, true);
      // rebuild the definition from the ring's own deduplicated points: colliding positions
      // keep the lowest owner
      java.util.TreeMap<Integer, Integer> kept = new java.util.TreeMap<>(Integer::compareUnsigned);
      for (int i = 0; i < size; i++) {
        kept.merge(positions[i], owners[i], Math::min);
      }
      int[] keptPositions = kept.keySet().stream().mapToInt(Integer::intValue).toArray();
      int[] keptOwners = kept.values().stream().mapToInt(Integer::intValue).toArray();
      int slots = PointRing.MAX_SLOTS;
      for (int slot = 0; slot < slots; slot += size > 1000 ? 61 : 1) {
        int start = slot << 16;
        for (int h : new int[] {start, start - 1, start + 1}) {
          assertThat(ring.ownerAt(h)).isEqualTo(expectedOwner(keptPositions, keptOwners, h));
        }
      }
    }
  }

  @Test
  void build_collision_keepsNodeChosenByIndexNotInsertionOrder() {
    long[] highFirst = {PointRing.pack(42, 5), PointRing.pack(42, 2), PointRing.pack(99, 1)};
    long[] lowFirst = {PointRing.pack(42, 2), PointRing.pack(99, 1), PointRing.pack(42, 5)};
    assertThat(PointRing.build(highFirst, 3, true).ownerAt(40)).isEqualTo(2);
    assertThat(PointRing.build(lowFirst, 3, true).ownerAt(40)).isEqualTo(2);
    assertThat(PointRing.build(highFirst, 3, false).ownerAt(40)).isEqualTo(5);
    assertThat(PointRing.build(lowFirst, 3, false).ownerAt(40)).isEqualTo(5);
    assertThat(PointRing.build(lowFirst, 3, true).size()).isEqualTo(2);
  }

  @Test
  void build_largeRingWithCollisions_sameOwnersAsFullSort() {
    // above the radix-sort threshold, with many shared positions inserted in shuffled order
    Random random = new Random(7);
    int count = 50_000;
    long[] packed = new long[count];
    for (int i = 0; i < count; i++) {
      packed[i] = PointRing.pack(random.nextInt(20_000) * 214_748, random.nextInt(300));
    }
    for (boolean lowest : new boolean[] {true, false}) {
      java.util.TreeMap<Long, Integer> reference = new java.util.TreeMap<>();
      for (long p : packed) {
        long position = (int) (p >>> 32) ^ Integer.MIN_VALUE;
        int owner = (int) p;
        reference.merge(position & 0xffffffffL, owner, lowest ? Math::min : Math::max);
      }
      PointRing ring = PointRing.build(packed, count, lowest);
      assertThat(ring.size()).isEqualTo(reference.size());
      for (int k = 0; k < 20_000; k++) {
        int h = random.nextInt();
        Map.Entry<Long, Integer> at = reference.ceilingEntry(h & 0xffffffffL);
        int expected = (at != null ? at : reference.firstEntry()).getValue();
        assertThat(ring.ownerAt(h)).isEqualTo(expected);
      }
    }
  }

  @Test
  void sortByPosition_inPlace_ordersAsAFullSort_forSkewedAndUniformPositions() {
    Random random = new Random(5);
    // sizes around the radix threshold, buckets above it, and every point in one top-byte bucket
    for (int count : new int[] {4095, 4096, 70_000, 1_200_000}) {
      for (boolean oneBucket : new boolean[] {false, true}) {
        long[] packed = new long[count + 3];
        for (int i = 0; i < packed.length; i++) {
          int position = oneBucket ? 0x7f00_0000 | random.nextInt(1 << 24) : random.nextInt();
          packed[i] = PointRing.pack(position, random.nextInt(1000));
        }
        long[] expected = Arrays.copyOf(packed, count);
        Arrays.sort(expected);
        long[] tail = Arrays.copyOfRange(packed, count, packed.length);

        PointRing.sortByPosition(packed, count);

        // by position; points sharing one keep any order, so compare positions, then the sets
        long[] positions = Arrays.stream(packed, 0, count).map(p -> p >> 32).toArray();
        assertThat(positions)
            .as("count %d, one bucket %s", count, oneBucket)
            .isSorted()
            // isEqualTo compares arrays in linear time; containsExactly diffs them quadratically
            .isEqualTo(Arrays.stream(expected).map(p -> p >> 32).toArray());
        long[] sorted = Arrays.copyOf(packed, count);
        Arrays.sort(sorted);
        assertThat(sorted).isEqualTo(expected);
        assertThat(Arrays.copyOfRange(packed, count, packed.length)).isEqualTo(tail);
      }
    }
  }

  @Test
  void build_leavesItsInputAsItWas() {
    long[] packed = {PointRing.pack(9, 0), PointRing.pack(3, 1), PointRing.pack(9, 2)};
    long[] copy = packed.clone();
    PointRing.build(packed, 3, true);
    assertThat(packed).containsExactly(copy);
  }

  @Test
  void shares_areArcLengths() {
    long[] packed = {
      PointRing.pack(0, 0), PointRing.pack(1 << 30, 1), PointRing.pack(Integer.MIN_VALUE, 0)
    };
    double[] shares = PointRing.build(packed, 3, true).shares(2);
    // node 1 owns (0, 2^30]; node 0 owns (2^30, 2^31] and (2^31, 2^32 + 0]
    assertThat(shares[1]).isEqualTo(0.25);
    assertThat(shares[0]).isEqualTo(0.75);
  }

  @Test
  void ring_defaultPoints_atMost12BytesPerPoint() {
    Ring ring = Rings.create(RingSettings.defaults(), AbstractRingContractTest.nodes(100));
    PointRing points = ((VirtualNodeRing) ring).points();
    assertThat(points.size()).isGreaterThan(99_000);
    assertThat(points.bytes() / (double) points.size()).isLessThanOrEqualTo(12.0);
  }

  @Test
  void pack_ordersUnsignedPositionsThenIndex() {
    long[] packed = {
      PointRing.pack(-1, 0),
      PointRing.pack(0, 3),
      PointRing.pack(Integer.MIN_VALUE, 0),
      PointRing.pack(0, 1)
    };
    Arrays.sort(packed);
    assertThat(packed)
        .containsExactly(
            PointRing.pack(0, 1),
            PointRing.pack(0, 3),
            PointRing.pack(Integer.MIN_VALUE, 0),
            PointRing.pack(-1, 0));
  }

  @Test
  void pointAt_agreesWithOwnerAt_inEmptyAndFullBuckets() {
    // Points crowded into a quarter of the circle leave most buckets empty (they keep an owner,
    // not a point index); the preference walk must still start at the key's owner.
    Random random = new Random(9);
    for (int size : new int[] {1, 2, 5, 100, 4096}) {
      long[] packed = new long[size];
      for (int i = 0; i < size; i++) {
        packed[i] = PointRing.pack(random.nextInt(1 << 30) + (1 << 31), i % 5);
      }
      PointRing ring = PointRing.build(packed, size, true);
      for (int k = 0; k < 20_000; k++) {
        int h = random.nextInt();
        assertThat(ring.distinctOwners(h, 1, 5)[0]).as("h=%d", h).isEqualTo(ring.ownerAt(h));
      }
    }
  }
}
