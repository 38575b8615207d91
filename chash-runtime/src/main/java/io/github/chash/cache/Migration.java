package io.github.chash.cache;

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
  private final FailurePolicy policy;
  private final NodeCalls calls;
  private final StatsCounter stats;

  Migration(FailurePolicy policy, NodeCalls calls, StatsCounter stats) {
    this.policy = policy;
    this.calls = calls;
    this.stats = stats;
  }

  /**
   * Reads the key on its previous owners within their windows, newest first, skipping {@code
   * target}, owners that are out or just failed, and owners whose copy is marked. Returns the first
   * hit, or null.
   */
  CacheNode.StoredEntry readPrevious(
      Routing r, NodeSlot target, String routingKey, ValueType type) {
    if (r.priors.isEmpty()) {
      return null;
    }
    long now = policy.now();
    List<NodeSlot> asked = new ArrayList<>(2);
    for (Prior prior : r.priors) {
      if (!prior.inWindow(now)) {
        continue;
      }
      NodeSlot from = prior.home(routingKey);
      if (from == target
          || asked.contains(from)
          || from.ejected
          || from.justFailed()
          || (!from.marks.isEmpty() && from.marks.get(routingKey) != null)) {
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
   * Deletes the key on its previous owners after a write of it landed on {@code target}. An owner
   * that is out, or whose last call failed, is not called: the key's copy there is marked stale
   * instead ({@link FailurePolicy#staleCopy}), as it is when the delete fails.
   */
  void deletePrevious(Routing r, NodeSlot target, String routingKey) {
    if (r.priors.isEmpty()) {
      return;
    }
    List<NodeSlot> done = new ArrayList<>(2);
    for (Prior prior : r.priors) {
      NodeSlot from = prior.home(routingKey);
      if (from == target || done.contains(from)) {
        continue;
      }
      done.add(from);
      if (from.ejected || from.justFailed()) {
        policy.staleCopy(from, routingKey);
      } else if (calls.write(from, routingKey, null, null) == NodeCalls.Outcome.LANDED) {
        from.marks.forget(routingKey);
      }
    }
  }
}
