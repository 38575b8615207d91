package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Where every key goes in one generation of the manager's routing: the configured ring, which of
 * its nodes are out, and the rings reconfigurations replaced that still matter ({@link Prior}). A
 * key is served by its home (its owner in the configured ring) or, while the home is out, by the
 * first serving node of its preference list: ejecting or readmitting a node moves only that node's
 * keys and rebuilds nothing. Immutable; a change makes the next generation.
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
   * last readmission or reconfiguration moved keys back home, and a copy it left behind may be
   * outdated by the time the key moves away again.
   */
  final long trustedSince;

  /**
   * The rings reconfigurations replaced that still matter, newest first: their owners are read on a
   * miss within their window, and written keys are deleted on them until they are swept.
   */
  final List<Prior> priors;

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
      boolean closed,
      List<Prior> priors) {
    this.generation = generation;
    this.ring = ring;
    this.slots = slots;
    this.out = out;
    this.trustedSince = trustedSince;
    this.closed = closed;
    this.priors = priors;
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
    NodeSlot[] slots = Prior.inRingOrder(ring, slotsById);
    return new Routing(0, ring, slots, new boolean[slots.length], 0, false, List.of());
  }

  /**
   * The next generation, with the node out (ejected). A node that is only in a prior ring (being
   * removed) changes no routing: priors read their nodes' health directly.
   */
  Routing without(NodeSlot slot) {
    return indexOf(slot) < 0 ? this : next(slot, true, trustedSince);
  }

  /**
   * The next generation, with the node serving again; off-home copies written before it are stale.
   */
  Routing readmitting(NodeSlot slot) {
    return indexOf(slot) < 0 ? this : next(slot, false, generation + 1);
  }

  /** The same routing, closed. */
  Routing closing() {
    return new Routing(generation + 1, ring, slots, out, trustedSince, true, priors);
  }

  /**
   * The next generation on another configured ring (a reconfiguration): this ring becomes the
   * newest prior, whose window ends at {@code windowEndsNanos}. Copies written before it are
   * trusted only at their home.
   */
  Routing reconfigured(
      Ring next, Map<String, NodeSlot> slotsById, long nowNanos, long windowEndsNanos) {
    NodeSlot[] nextSlots = Prior.inRingOrder(next, slotsById);
    boolean[] nextOut = new boolean[nextSlots.length];
    for (int i = 0; i < nextSlots.length; i++) {
      nextOut[i] = nextSlots[i].ejected;
    }
    return new Routing(
        generation + 1,
        next,
        nextSlots,
        nextOut,
        generation + 1,
        closed,
        chain(new Prior(ring, slots, windowEndsNanos), next, nextSlots, nowNanos));
  }

  /**
   * The priors after this ring is replaced by {@code next}, newest first, each placement once.
   * Within their windows, a placement keeps its <em>oldest</em> place: readers rank a key's owners
   * by that place (the oldest ring's entry is the newest, {@link Migration#consult}), and a ring
   * the chain comes back to (a change reverted, a node added and removed again) is as old as it
   * first was, since JVMs that never left it still write there; a later occurrence merges into it,
   * which keeps the later window end. One whose window had ended gives way to the later occurrence
   * instead: its rollout is over, so its place no longer ranks anything.
   *
   * <p>A prior that places as {@code next} is dropped when it is the newest (it adds nothing: a
   * node flapping in and out keeps a chain of one) or its window has ended; otherwise it stays,
   * marking the current ring as older than the priors between, for as long as any of them is read.
   */
  private List<Prior> chain(Prior replaced, Ring next, NodeSlot[] nextSlots, long nowNanos) {
    List<Prior> oldestFirst = new ArrayList<>(priors.size() + 1);
    for (int i = priors.size(); i >= 0; i--) {
      Prior p = i == 0 ? replaced : priors.get(i - 1);
      int same = indexOfPlacement(oldestFirst, p.ring, p.slotArray());
      if (same < 0) {
        oldestFirst.add(p);
      } else if (!oldestFirst.get(same).inWindow(nowNanos)) {
        oldestFirst.remove(same);
        oldestFirst.add(p);
      } else if (p.windowEndsNanos - oldestFirst.get(same).windowEndsNanos > 0) {
        oldestFirst.set(same, oldestFirst.get(same).until(p.windowEndsNanos));
      }
    }
    int asNext = indexOfPlacement(oldestFirst, next, nextSlots);
    if (asNext >= 0) {
      Prior marker = oldestFirst.get(asNext);
      if (asNext == oldestFirst.size() - 1 || !marker.inWindow(nowNanos)) {
        oldestFirst.remove(asNext);
      } else {
        long end = marker.windowEndsNanos;
        for (Prior newer : oldestFirst.subList(asNext + 1, oldestFirst.size())) {
          end = newer.windowEndsNanos - end > 0 ? newer.windowEndsNanos : end;
        }
        oldestFirst.set(asNext, marker.until(end));
      }
    }
    java.util.Collections.reverse(oldestFirst);
    return List.copyOf(oldestFirst);
  }

  /** The index of the prior placing keys as {@code ring} on {@code slots}; -1 when none does. */
  private static int indexOfPlacement(List<Prior> chain, Ring ring, NodeSlot[] slots) {
    for (int i = 0; i < chain.size(); i++) {
      if (chain.get(i).placesAs(ring, slots)) {
        return i;
      }
    }
    return -1;
  }

  /** The next generation without the priors whose leftovers are gone. */
  Routing withoutSettledPriors() {
    List<Prior> left = priors.stream().filter(p -> !p.settled).toList();
    return new Routing(generation + 1, ring, slots, out, trustedSince, closed, left);
  }

  /** Every slot this routing or one of its priors may reach. */
  Set<NodeSlot> reachableSlots() {
    Set<NodeSlot> all = new LinkedHashSet<>(List.of(slots));
    priors.forEach(p -> all.addAll(p.slots()));
    return all;
  }

  private Routing next(NodeSlot slot, boolean isOut, long trusted) {
    boolean[] nextOut = Arrays.copyOf(out, out.length);
    nextOut[indexOf(slot)] = isOut;
    return new Routing(generation + 1, ring, slots, nextOut, trusted, closed, priors);
  }

  /**
   * The node that serves the key: its home, or the home's stand-in; null when every node is out.
   */
  NodeSlot target(CharSequence routingKey) {
    int home = ring.locateIndex(VerbatimKeys.hashed(routingKey));
    if (!degraded || !out[home]) {
      return slots[home];
    }
    return allOut ? null : slots[ring.locateIndex(VerbatimKeys.hashed(routingKey), serving)];
  }

  /** The key's owner in the configured ring, serving or not. */
  NodeSlot home(CharSequence routingKey) {
    return slots[ring.locateIndex(VerbatimKeys.hashed(routingKey))];
  }

  /**
   * Whether a read of the key on {@code target} (its {@link #target}) may trust what the node
   * holds: a copy at home unless marked unknown; a copy away from home only if it was written in a
   * generation since {@link #trustedSince}. One volatile read while the node has no marks and no
   * node is out.
   */
  boolean readable(NodeSlot target, CharSequence routingKey) {
    CopyMarks.Mark mark = target.marks.isEmpty() ? null : target.marks.get(routingKey.toString());
    if (mark == null) {
      return !degraded || home(routingKey) == target;
    }
    return mark.trustedSince(trustedSince);
  }

  /**
   * The first serving node of the key's preference list after {@code after}: the node that takes
   * the key over when {@code after} leaves; null when there is none.
   */
  NodeSlot standIn(CharSequence routingKey, NodeSlot after) {
    int i =
        ring.locateIndex(
            VerbatimKeys.hashed(routingKey), index -> !out[index] && slots[index] != after);
    return i < 0 ? null : slots[i];
  }

  /** Every node of the configured ring, in ring order. */
  List<NodeSlot> slots() {
    return List.of(slots);
  }

  /** Whether the slot is out of this routing: ejected, or not one of its nodes. */
  boolean isOut(NodeSlot slot) {
    int i = indexOf(slot);
    return i < 0 || out[i];
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

  /** The slot's index in the ring, or -1 when it is not one of its nodes. */
  private int indexOf(NodeSlot slot) {
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] == slot) {
        return i;
      }
    }
    return -1;
  }
}
