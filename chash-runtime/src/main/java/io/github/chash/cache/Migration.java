package io.github.chash.cache;

import io.github.chash.ring.RoutingKey;
import java.util.ArrayList;
import java.util.List;

/**
 * What a cache does with the previous owners of a key ({@link Routing#priors}) after membership
 * changes: within a prior's window, a miss on the key's owner reads the previous owners, newest
 * first; until a prior's leftovers are proven gone, a write of the key deletes it on its previous
 * owners, so that a key that moves back never finds a copy older than its last write.
 *
 * <p>Nodes are visited once per call however many priors name them (identity is the node id, and a
 * re-added node is the same slot), and a node whose last call failed is not waited for again: a
 * read skips it (a miss), a delete marks the key's copy there unknown instead. So a frozen previous
 * owner costs a caller at most one node timeout.
 */
final class Migration {
  private final Router router;
  private final FailurePolicy policy;
  private final NodeCalls calls;
  private final StatsCounter stats;

  Migration(Router router, FailurePolicy policy, NodeCalls calls, StatsCounter stats) {
    this.router = router;
    this.policy = policy;
    this.calls = calls;
    this.stats = stats;
  }

  /**
   * Whether reads consult the prior's owners ({@link Prior#consulted}); never with a zero window,
   * whose moved keys are misses from the change on.
   */
  private boolean consulted(Prior prior, long now) {
    return !router.window.isZero() && prior.consulted(now);
  }

  /**
   * Reads the key on its previous owners within their windows, newest first, skipping {@code
   * target}, owners that are out or just failed, and owners whose copy is marked. Returns the first
   * hit, or null.
   */
  CacheNode.StoredEntry readPrevious(
      Routing r, NodeSlot target, RoutingKey routingKey, ValueType type) {
    if (r.priors.isEmpty()) {
      return null;
    }
    long now = policy.now();
    List<NodeSlot> asked = new ArrayList<>(2);
    for (Prior prior : r.priors) {
      if (!consulted(prior, now)) {
        continue;
      }
      NodeSlot from = prior.home(routingKey);
      if (from == target
          || asked.contains(from)
          || from.skipsCalls()
          || (!from.marks.isEmpty() && from.marks.get(routingKey.text()) != null)) {
        continue;
      }
      asked.add(from);
      Object got = calls.getEntry(from, routingKey, type);
      if (got instanceof CacheNode.StoredEntry entry) {
        stats.migrationHit();
        from.stats.migrationHit();
        return entry;
      }
    }
    return null;
  }

  /**
   * The nodes a read of the key consults at once within a migration window when the rules between
   * JVMs apply, and their ages ({@link Consulted}); {@link Consulted#UNREADABLE} when one of the
   * previous owners is out, just failed or its copy is marked. Null when there is no such owner, or
   * the old path applies: the target is away from the key's home, or some node has no conditional
   * calls.
   */
  Consulted consult(Routing r, NodeSlot target, CharSequence routingKey) {
    if (r.priors.isEmpty()
        || !target.conditionalFor(routingKey)
        || (r.degraded && r.home(routingKey) != target)) {
      return null;
    }
    long now = policy.now();
    // oldest ring first, so that each node is placed where it first owned the key
    List<NodeSlot> oldestFirst = null;
    int olderThanTarget = -1; // -1: no ring of the chain placed the key on the target
    for (int i = r.priors.size() - 1; i >= 0; i--) {
      Prior prior = r.priors.get(i);
      if (!consulted(prior, now)) {
        continue;
      }
      NodeSlot from = prior.home(routingKey);
      if (from == target) {
        if (olderThanTarget < 0) {
          olderThanTarget = oldestFirst == null ? 0 : oldestFirst.size();
        }
        continue;
      }
      if (oldestFirst != null && oldestFirst.contains(from)) {
        continue;
      }
      if (!from.conditionalFor(routingKey)) {
        return null;
      }
      if (from.skipsCalls()
          || (!from.marks.isEmpty() && from.marks.get(routingKey.toString()) != null)) {
        // a previous owner that cannot be read (or whose copy this JVM cannot vouch for) may hold
        // a newer write of a JVM on its ring: the target's copy may be older, so the read misses
        return Consulted.UNREADABLE;
      }
      if (oldestFirst == null) {
        oldestFirst = new ArrayList<>(2);
      }
      oldestFirst.add(from);
    }
    if (oldestFirst == null) {
      return null;
    }
    List<NodeSlot> nodes = new ArrayList<>(oldestFirst.size() + 1);
    nodes.add(target);
    for (int i = oldestFirst.size() - 1; i >= 0; i--) {
      nodes.add(oldestFirst.get(i));
    }
    int newer = olderThanTarget < 0 ? 0 : oldestFirst.size() - olderThanTarget;
    return new Consulted(nodes, Planted.on(Planted.TARGET_ALWAYS_NEWEST) ? 0 : newer);
  }

  /**
   * The nodes a read of a key consults: the target first, then the previous owners from the newest
   * to the oldest by the oldest ring of the chain that placed the key there; and how many of those
   * are newer than the target. That is 0 unless the chain came back to a ring that placed the key
   * on the target (a change reverted, a node added and removed again): JVMs still on that older
   * ring write the target, so its entry is as old as that ring. Readers take the oldest entry found
   * as the newest ({@link Reads}).
   *
   * @param nodes the target, then the previous owners, newest first
   * @param newerThanTarget how many previous owners (from index 1) are newer than the target
   */
  record Consulted(List<NodeSlot> nodes, int newerThanTarget) {
    /** The read is a miss, without a call. */
    static final Consulted UNREADABLE = new Consulted(List.of(), 0);

    boolean unreadable() {
      return this == UNREADABLE;
    }
  }

  /**
   * The previous owners {@link #consult} names beside the target (those a write fences and vouches
   * on, a load leases); none when reads consult none, or cannot (they miss then anyway).
   */
  List<NodeSlot> previousOwners(Routing r, NodeSlot target, CharSequence routingKey) {
    Consulted c = consult(r, target, routingKey);
    return c == null || c.unreadable() ? List.of() : c.nodes().subList(1, c.nodes().size());
  }

  /**
   * {@link #deletePrevious} for a fill or a move under the rules between JVMs: previous owners that
   * readers consult (within their window) keep what they hold, since a JVM still on their ring may
   * have written it after this JVM read there; their copies win over the target's and are moved
   * conditionally by the reads.
   */
  void deletePreviousOutsideWindows(Routing r, NodeSlot target, RoutingKey routingKey) {
    if (r.priors.isEmpty()) {
      return;
    }
    long now = policy.now();
    List<NodeSlot> spared = new ArrayList<>(2);
    for (Prior prior : r.priors) {
      if (consulted(prior, now)) {
        spared.add(prior.home(routingKey));
      }
    }
    deletePrevious(r, target, routingKey, spared, List.of());
  }

  /**
   * Deletes the key on its previous owners after a write of it landed on {@code target}. An owner
   * that is out, or whose last call failed, is not called: the key's copy there is marked stale
   * instead ({@link FailurePolicy#staleCopy}), as it is when the delete fails.
   */
  void deletePrevious(Routing r, NodeSlot target, RoutingKey routingKey) {
    if (r.priors.isEmpty()) {
      return;
    }
    deletePrevious(r, target, routingKey, List.of(), List.of());
  }

  /**
   * {@link #deletePrevious} after a write of this ring landed on the key's target: on the previous
   * owners that reads consult (within their windows), a {@link Marker#vouch} for the window takes
   * the copy's place rather than nothing, since reads serve the target's copy only while each of
   * those owners vouches for it. A previous owner holding nothing may have held a newer write of a
   * JVM on its ring that the server evicted or lost (issue 40: 787-802 of 812 moved keys read stale
   * on real servers under {@code maxmemory}), so nothing there is no proof.
   */
  void vouchPrevious(Routing r, NodeSlot target, RoutingKey routingKey) {
    if (r.priors.isEmpty()) {
      return;
    }
    deletePrevious(r, target, routingKey, List.of(), vouched(r, target, routingKey));
  }

  /**
   * The previous owners a write landed on {@code target} leaves a vouch on: those reads consult
   * with the target ({@link #previousOwners}, the one rule for which owners they are); none when
   * reads do not consult them, or cannot (they miss then anyway).
   */
  private List<NodeSlot> vouched(Routing r, NodeSlot target, RoutingKey routingKey) {
    return target == null || Planted.on(Planted.NO_VOUCH)
        ? List.of()
        : previousOwners(r, target, routingKey);
  }

  private void deletePrevious(
      Routing r,
      NodeSlot target,
      RoutingKey routingKey,
      List<NodeSlot> spared,
      List<NodeSlot> vouched) {
    List<NodeSlot> done = new ArrayList<>(spared);
    for (Prior prior : r.priors) {
      NodeSlot from = prior.home(routingKey);
      if (from == target || done.contains(from)) {
        continue;
      }
      done.add(from);
      if (from.skipsCalls()) {
        policy.staleCopy(from, routingKey.text());
        if (!from.ejected) {
          tombstoneUnawaited(from, routingKey);
        }
      } else if ((vouched.contains(from)
              ? calls.write(from, routingKey, Marker.vouch(target.id()), router.vouchTtl())
              : calls.write(from, routingKey, null, null))
          == NodeCalls.Outcome.LANDED) {
        from.marks.forget(routingKey.text());
      }
    }
  }

  /**
   * A previous owner whose last call failed is not waited for again (rule 6), and its copy is
   * marked stale in this JVM only; yet it may well serve the other JVMs of the fleet, and a JVM on
   * the older ring reads that copy, or a newer one takes it for newer than this write. So, within
   * migration windows, the window's tombstone is sent there without waiting for its reply: best
   * effort, which a node that is really out refuses at once. (The fleet simulation with replies
   * dropped now and then: 25 of 500 seeds read a copy such a write had left.)
   */
  private void tombstoneUnawaited(NodeSlot from, RoutingKey routingKey) {
    Marker tombstone = router.deleted();
    if (tombstone == null || !from.conditionalFor(routingKey)) {
      return;
    }
    try {
      from.node.putAll(java.util.Map.of(routingKey.text(), tombstone), router.window);
    } catch (RuntimeException refused) {
      // best effort: the copy stays marked stale in this JVM, as without it
    }
  }
}
