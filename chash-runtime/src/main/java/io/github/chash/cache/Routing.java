package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.util.Map;

/** An immutable pair of the configured ring and the live ring, swapped as a whole. */
final class Routing {
  final Ring configured;
  final Ring live;

  /** Some node is ejected, so some keys live away from their configured owner. */
  final boolean degraded;

  private final boolean allEjected;

  /** The manager was closed: every cache operation fails. */
  final boolean closed;

  private final Map<String, NodeSlot> slots;

  /** The slots of each ring's nodes, by index in its {@code nodes()}: no map on a lookup. */
  private final NodeSlot[] configuredSlots;

  private final NodeSlot[] liveSlots;

  Routing(Ring configured, Ring live, Map<String, NodeSlot> slots) {
    this(configured, live, slots, false);
  }

  Routing(Ring configured, Ring live, Map<String, NodeSlot> slots, boolean closed) {
    this.closed = closed;
    this.configured = configured;
    this.live = live;
    this.degraded = live.size() < configured.size();
    this.allEjected = live.size() == 0;
    this.slots = slots;
    this.configuredSlots = slotsOf(configured, slots);
    this.liveSlots = slotsOf(live, slots);
  }

  private static NodeSlot[] slotsOf(Ring ring, Map<String, NodeSlot> slots) {
    return ring.nodes().stream().map(n -> slots.get(n.id())).toArray(NodeSlot[]::new);
  }

  /** The key's owner in the configured ring, ejected or not. */
  NodeSlot configuredOwner(String routingKey) {
    return configuredSlots[configured.locateIndex(routingKey)];
  }

  /** The live node that owns the key, or null when every node is ejected. */
  NodeSlot liveOwner(String routingKey) {
    if (allEjected) {
      return null;
    }
    return liveSlots[live.locateIndex(routingKey)];
  }

  NodeSlot slot(String nodeId) {
    return slots.get(nodeId);
  }
}
