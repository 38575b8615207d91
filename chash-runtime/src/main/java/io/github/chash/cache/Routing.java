package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.util.Map;

/** An immutable pair of the configured ring and the live ring, swapped as a whole. */
final class Routing {
  final Ring configured;
  final Ring live;
  private final Map<String, NodeSlot> slots;

  Routing(Ring configured, Ring live, Map<String, NodeSlot> slots) {
    this.configured = configured;
    this.live = live;
    this.slots = slots;
  }

  /** The live node that owns the key, or null when every node is ejected. */
  NodeSlot liveOwner(String routingKey) {
    if (live.size() == 0) {
      return null;
    }
    return slots.get(live.locate(routingKey).id());
  }

  NodeSlot slot(String nodeId) {
    return slots.get(nodeId);
  }
}
