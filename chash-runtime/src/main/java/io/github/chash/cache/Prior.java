package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.util.List;
import java.util.Map;

/**
 * A configured ring that a reconfiguration replaced, kept while its nodes may still hold the keys
 * that moved away from them: within its migration window, and after it until this JVM's sweep has
 * passed over its leftovers, a miss on a key's new owner reads the key's home here; until its
 * leftovers are gone (see {@link Membership#sweepDue}), every write of a key deletes it here too,
 * so that a key that moves back never finds an old copy. Immutable but for {@link #swept} and
 * {@link #settled}.
 */
final class Prior {
  final Ring ring;
  private final NodeSlot[] slots;

  /** When the window ends, in the manager's {@code Ticker} nanos. */
  final long windowEndsNanos;

  /**
   * This JVM's sweep has passed over every node after the window: an older ring's write left here
   * has had its key's copy on the new home deleted first ({@link Membership#sweepDue}), so reads
   * need not consult this ring's owners any more.
   */
  volatile boolean swept;

  /** Its leftovers are gone (swept, expired, or their nodes emptied): it can be forgotten. */
  volatile boolean settled;

  Prior(Ring ring, NodeSlot[] slotsInRingOrder, long windowEndsNanos) {
    this.ring = ring;
    this.slots = slotsInRingOrder;
    this.windowEndsNanos = windowEndsNanos;
  }

  /**
   * This ring with its window ending at {@code windowEndsNanos}: a later occurrence of the same
   * placement merged into it ({@link Routing}'s chain). Its leftovers are swept again.
   */
  Prior until(long windowEndsNanos) {
    return new Prior(ring, slots, windowEndsNanos);
  }

  /** The key's owner in this ring. */
  NodeSlot home(CharSequence routingKey) {
    return slots[ring.locateIndex(VerbatimKeys.hashed(routingKey))];
  }

  /** Whether the migration window is still open; its sweep is due once it is not. */
  boolean inWindow(long nowNanos) {
    return nowNanos - windowEndsNanos < 0;
  }

  /**
   * Whether reads still consult this ring's owners: within the window, and after it until this
   * JVM's sweep has passed. Not the window alone: a read between the window's end and the sweep met
   * only the new home's copy, older than an older ring's evict still waiting on the previous owner
   * for the sweep to delete that copy (fleet simulation, seed 81568).
   */
  boolean consulted(long nowNanos) {
    return inWindow(nowNanos) || (!swept && !Planted.on(Planted.READS_STOP_AT_WINDOW_END));
  }

  List<NodeSlot> slots() {
    return List.of(slots);
  }

  NodeSlot[] slotArray() {
    return slots;
  }

  /**
   * Whether this ring places every key on the same node (the same slot) as {@code other}: the same
   * settings and nodes, in the same order.
   */
  boolean placesAs(Ring other, NodeSlot[] otherSlots) {
    if (!ring.settings().equals(other.settings()) || !ring.nodes().equals(other.nodes())) {
      return false;
    }
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] != otherSlots[i]) {
        return false;
      }
    }
    return true;
  }

  static NodeSlot[] inRingOrder(Ring ring, Map<String, NodeSlot> slotsById) {
    return ring.nodes().stream().map(n -> slotsById.get(n.id())).toArray(NodeSlot[]::new);
  }
}
