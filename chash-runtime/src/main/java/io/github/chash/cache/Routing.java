package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Where every key goes in one generation of the manager's routing: the configured ring, and which
 * of its nodes are out. A key is served by its home (its owner in the configured ring) or, while
 * the home is out, by the first serving node of its preference list: ejecting or readmitting a node
 * moves only that node's keys and rebuilds nothing. Immutable; a change makes the next generation.
 */
final class Routing {
  final long generation;
  final Ring ring;

  /** Some node is out, so some keys are served away from their home. */
  final boolean degraded;

  /** The manager was closed: every cache operation fails. */
  final boolean closed;

  /**
   * Copies written away from their home are read only if written in this generation or later: the
   * last readmission moved keys back home, and a copy it left behind may be outdated by the time
   * the key moves away again.
   */
  final long trustedSince;

  /** The slots by index in {@code ring.nodes()}: no map on a lookup. */
  private final NodeSlot[] slots;

  private final boolean[] out;
  private final boolean allOut;
  private final IntPredicate serving;
  private volatile Ring live;

  private Routing(
      long generation,
      Ring ring,
      NodeSlot[] slots,
      boolean[] out,
      long trustedSince,
      boolean closed) {
    this.generation = generation;
    this.ring = ring;
    this.slots = slots;
    this.out = out;
    this.trustedSince = trustedSince;
    this.closed = closed;
    int outCount = 0;
    for (boolean o : out) {
      outCount += o ? 1 : 0;
    }
    this.degraded = outCount > 0;
    this.allOut = outCount == out.length;
    this.serving = index -> !out[index];
  }

  /** The first generation: every node serves. */
  static Routing initial(Ring ring, Map<String, NodeSlot> slotsById) {
    NodeSlot[] slots =
        ring.nodes().stream().map(n -> slotsById.get(n.id())).toArray(NodeSlot[]::new);
    return new Routing(0, ring, slots, new boolean[slots.length], 0, false);
  }

  /** The next generation, with the node out (ejected). */
  Routing without(NodeSlot slot) {
    return next(slot, true, trustedSince);
  }

  /**
   * The next generation, with the node serving again; off-home copies written before it are stale.
   */
  Routing readmitting(NodeSlot slot) {
    return next(slot, false, generation + 1);
  }

  /** The same routing, closed. */
  Routing closing() {
    return new Routing(generation + 1, ring, slots, out, trustedSince, true);
  }

  private Routing next(NodeSlot slot, boolean isOut, long trusted) {
    boolean[] nextOut = Arrays.copyOf(out, out.length);
    nextOut[indexOf(slot)] = isOut;
    return new Routing(generation + 1, ring, slots, nextOut, trusted, closed);
  }

  /**
   * The node that serves the key: its home, or the home's stand-in; null when every node is out.
   */
  NodeSlot target(String routingKey) {
    int home = ring.locateIndex(routingKey);
    if (!degraded || !out[home]) {
      return slots[home];
    }
    return allOut ? null : slots[ring.locateIndex(routingKey, serving)];
  }

  /** The key's owner in the configured ring, serving or not. */
  NodeSlot home(String routingKey) {
    return slots[ring.locateIndex(routingKey)];
  }

  /**
   * Whether a read of the key on {@code target} (its {@link #target}) may trust what the node
   * holds: a copy at home unless marked unknown; a copy away from home only if it was written in a
   * generation since {@link #trustedSince}. One volatile read while the node has no marks and no
   * node is out.
   */
  boolean readable(NodeSlot target, String routingKey) {
    CopyMarks.Mark mark = target.marks.isEmpty() ? null : target.marks.get(routingKey);
    if (mark == null) {
      return !degraded || home(routingKey) == target;
    }
    return mark.trustedSince(trustedSince);
  }

  /**
   * The first serving node of the key's preference list after {@code after}: the node that takes
   * the key over when {@code after} leaves; null when there is none.
   */
  NodeSlot standIn(String routingKey, NodeSlot after) {
    int i = ring.locateIndex(routingKey, index -> !out[index] && slots[index] != after);
    return i < 0 ? null : slots[i];
  }

  /** Every configured node's slot, in ring order. */
  List<NodeSlot> slots() {
    return List.of(slots);
  }

  boolean isOut(NodeSlot slot) {
    return out[indexOf(slot)];
  }

  /** The serving nodes as a ring: the configured one with the ejected nodes routed around. */
  Ring live() {
    Ring view = live;
    if (view == null) {
      List<String> ejected = new ArrayList<>();
      for (int i = 0; i < slots.length; i++) {
        if (out[i]) {
          ejected.add(slots[i].id());
        }
      }
      view = ring.routingAround(ejected);
      live = view;
    }
    return view;
  }

  private int indexOf(NodeSlot slot) {
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] == slot) {
        return i;
      }
    }
    throw new IllegalArgumentException("node \"" + slot.id() + "\" is not in this routing");
  }
}
