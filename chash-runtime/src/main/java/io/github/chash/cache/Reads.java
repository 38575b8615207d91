package io.github.chash.cache;

import io.github.chash.internal.cache.NullValue;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read path of one cache: a key is read on its target when the routing vouches for the copy
 * there ({@link Routing#readable}); after a clean miss within a migration window, on its previous
 * owners, and a value found there is copied to the target as a fill ({@link Migration}). Counts
 * each read's hit or miss.
 *
 * <p>With a near cache ({@link NearCache}), which the cache looks at before it comes here (so that
 * a hit there needs no ring lookup), a read asks the nodes for the key's entry with its time left,
 * and keeps a value the target itself answered (not one from a previous owner: the near cache
 * follows the nodes it reads) under the ticket taken before asking.
 */
final class Reads {
  private final Router router;
  private final String name;
  private final Duration ttl;
  private final NodeCalls calls;
  private final Migration migration;
  private final Writes writes;
  private final KeyStripes stripes;
  private final StatsCounter stats;
  private final HitCounts hits;
  private final FailurePolicy policy;

  /** The cache's near cache, or null. */
  private final NearCache near;

  Reads(
      String name,
      Duration ttl,
      Router router,
      FailurePolicy policy,
      NodeCalls calls,
      Migration migration,
      Writes writes,
      KeyStripes stripes,
      StatsCounter stats,
      HitCounts hits,
      NearCache near) {
    this.near = near;
    this.name = name;
    this.ttl = ttl;
    this.router = router;
    this.policy = policy;
    this.calls = calls;
    this.migration = migration;
    this.writes = writes;
    this.stripes = stripes;
    this.stats = stats;
    this.hits = hits;
  }

  /** Reads the key from its target (and previous owners), counting a hit or a miss. */
  Object read(Routing r, NodeSlot target, RoutingKey routingKey, ValueType type) {
    if (near != null) {
      CacheNode.StoredEntry entry = readEntry(r, target, routingKey, type);
      return entry == null ? null : entry.value();
    }
    Object value = null;
    boolean readable = target != null && r.readable(target, routingKey);
    if (target != null && !readable) stats.safetyMiss();
    Migration.Consulted consulted = readable ? migration.consult(r, target, routingKey) : null;
    if (consulted != null) {
      value = readAcross(r, consulted, routingKey.text(), type).value();
    } else if (readable) {
      value = calls.get(target, routingKey, type);
      if (value == null) {
        // only after a clean miss: a target whose copy is unknown must not be bypassed
        value = readPrevious(r, target, routingKey, type);
      } else if (value == NodeCalls.NOT_READ) {
        value = null;
      }
    }
    if (value == null) {
      miss(target);
    } else {
      hits.hit(target);
    }
    return value;
  }

  /**
   * {@link #read} with the time the entry has left ({@code null} when the node cannot tell, or the
   * value came from a previous owner), for refresh-ahead. Counts as {@code read}; null on a miss.
   */
  CacheNode.StoredEntry readEntry(
      Routing r, NodeSlot target, RoutingKey routingKey, ValueType type) {
    CacheNode.StoredEntry entry = null;
    boolean readable = target != null && r.readable(target, routingKey);
    if (target != null && !readable) stats.safetyMiss();
    Migration.Consulted consulted = readable ? migration.consult(r, target, routingKey) : null;
    if (consulted != null) {
      CacheNode.Held got = readAcross(r, consulted, routingKey.text(), type);
      entry = got.value() == null ? null : new CacheNode.StoredEntry(got.value(), got.ttl());
    } else if (readable) {
      NearCache.Ticket ticket = near == null ? null : near.ticket(r, target, routingKey.text());
      Object got = calls.getEntry(target, routingKey, type);
      if (got instanceof CacheNode.StoredEntry e) {
        entry = e;
        if (ticket != null) {
          near.fill(ticket, routingKey.text(), type, e);
        }
      } else if (got == null) {
        Object previous = readPrevious(r, target, routingKey, type);
        entry = previous == null ? null : new CacheNode.StoredEntry(previous, null);
      }
    }
    if (entry == null) {
      miss(target);
    } else {
      hits.hit(target);
    }
    return entry;
  }

  /** {@link #readEntry} for a refresh's second look: counts nothing, skips a node that failed. */
  CacheNode.StoredEntry readEntryUncounted(
      Routing r, NodeSlot target, RoutingKey routingKey, ValueType type) {
    return lookAgain(r, target, routingKey, type, true);
  }

  /**
   * A second look at a key (a sync load's winner, a refresh): counts no hit or miss, skips a target
   * that just failed, and reads a key whose previous owners are consulted across them, as every
   * read of it is: the target alone may hold a copy older than an older ring's evict, which that
   * ring's lease on the previous owner now hides (fleet simulation, seed 4246457695).
   *
   * @param withTtl whether the entry's time left is wanted (a refresh), else it may be null
   */
  private CacheNode.StoredEntry lookAgain(
      Routing r, NodeSlot target, RoutingKey routingKey, ValueType type, boolean withTtl) {
    if (target == null || target.justFailed() || !r.readable(target, routingKey)) {
      return null;
    }
    Migration.Consulted consulted = migration.consult(r, target, routingKey);
    if (consulted != null) {
      CacheNode.Held got = readAcross(r, consulted, routingKey.text(), type);
      return got.value() == null ? null : new CacheNode.StoredEntry(got.value(), got.ttl());
    }
    if (withTtl) {
      return calls.getEntry(target, routingKey, type) instanceof CacheNode.StoredEntry e ? e : null;
    }
    Object value = calls.get(target, routingKey, type);
    return value == null || value == NodeCalls.NOT_READ
        ? null
        : new CacheNode.StoredEntry(value, null);
  }

  /** The sync winner's second look: counts nothing, and skips a node that just failed. */
  Object readUncounted(Routing r, NodeSlot target, RoutingKey routingKey, ValueType type) {
    CacheNode.StoredEntry entry = lookAgain(r, target, routingKey, type, false);
    return entry == null ? null : entry.value();
  }

  /**
   * A read under the rules between JVMs (see the package comment): the key's target and its
   * previous owners ({@code consulted}) are read at once, each within its node timeout. Only JVMs
   * on an older ring write an entry of their own to an older ring's owner (a newer ring's writes
   * leave a {@link Marker#vouch} there), so the entry found on the oldest node ({@link
   * Migration.Consulted}: the target is older than the owners between when the chain came back to
   * its ring) is the newest: its value is the answer, its tombstone or lease a miss. It is served
   * only while every older node vouches for it: one holding nothing may have lost a newer write
   * (evicted, restarted). A value or tombstone found on a previous owner is moved to the target
   * ({@link Writes#move}). Any node that failed makes the read a miss.
   *
   * @return what the read returns: its value (null on a miss) and, when the target's entry won, the
   *     time it has left
   */
  private CacheNode.Held readAcross(
      Routing r, Migration.Consulted across, String routingKey, ValueType type) {
    if (across.unreadable()) {
      stats.safetyMiss();
      return CacheNode.Held.NOTHING;
    }
    List<NodeSlot> consulted = across.nodes();
    int newer = across.newerThanTarget();
    long stamp = stripes.stamp(routingKey);
    List<NodeCalls.Sent<CacheNode.Held>> sent = new ArrayList<>(consulted.size());
    for (NodeSlot slot : consulted) {
      sent.add(calls.sendHeld(slot, routingKey, type));
    }
    List<CacheNode.Held> held = await(sent);
    if (held == null) {
      return CacheNode.Held.NOTHING;
    }
    int[] byAge = byAge(consulted.size(), newer);
    int winner = winner(held, byAge);
    CacheNode.Held won = held.get(winner);
    if (winner == 0 && won.value() == null) {
      return CacheNode.Held.NOTHING;
    }
    if (!olderVouch(held, byAge, winner, consulted)) {
      // an older node holding nothing may have lost a newer write (evicted, restarted)
      stats.safetyMiss();
      if (winner == 0) {
        writes.dropUnvouched(consulted.get(0), routingKey, won);
      }
      return CacheNode.Held.NOTHING;
    }
    if (winner == 0) {
      // the older owners held vouches, but the reads were not ordered: a move may have copied a
      // newer value to the target after the target's read and vouched where it was before the
      // previous owner's; a read of the target after theirs sees the copy
      CacheNode.Held again = calls.awaitRead(calls.sendHeld(consulted.get(0), routingKey, type));
      return again == null || again.value() == null ? CacheNode.Held.NOTHING : again;
    }
    NodeSlot target = consulted.get(0);
    if (won.value() != null) {
      stats.migrationHit();
      consulted.get(winner).stats.migrationHit();
    }
    CacheNode.Held answer =
        won.value() == null
            ? CacheNode.Held.NOTHING
            : new CacheNode.Held(won.value(), null, null, null);
    if (won.marker() != null && won.marker().isLease()) {
      return answer; // a load is under way in a JVM on that ring: nothing to move
    }
    Marker lease = null;
    if (!held.get(0).holds()) {
      // a move onto nothing: lease the target first, then read the previous owners again, so that
      // a write before the lease (and a delete that brought "nothing" back, as a joining JVM's
      // emptying does) is seen, and one after it makes the move fail
      lease = target.justFailed() ? null : writes.leaseFor(target, routingKey);
      if (lease == null) {
        return answer;
      }
      List<NodeCalls.Sent<CacheNode.Held>> again = new ArrayList<>(consulted.size());
      again.add(null);
      for (int i = 1; i < consulted.size(); i++) {
        again.add(calls.sendHeld(consulted.get(i), routingKey, type));
      }
      held = await(again);
      if (held == null) {
        return answer;
      }
      held.set(0, CacheNode.Held.NOTHING);
      winner = winner(held, byAge);
      won = held.get(winner);
      if (winner == 0
          || !olderVouch(held, byAge, winner, consulted)
          || (won.marker() != null && won.marker().isLease())) {
        return answer; // nothing to move now; the lease expires, or a write replaces it
      }
    }
    Object entry = won.value() != null ? won.value() : won.marker();
    Duration left = won.ttl() != null ? won.ttl() : won.value() != null ? ttl : router.window;
    List<NodeSlot> from = new ArrayList<>(2);
    List<CacheNode.Held> seen = new ArrayList<>(2);
    for (int i = 1; i < consulted.size(); i++) {
      if (held.get(i).holds()) {
        from.add(consulted.get(i));
        seen.add(held.get(i));
      }
    }
    if ((left == null || !left.isZero())
        && writes.move(r, target, routingKey, held.get(0), lease, entry, left, stamp, from, seen)
        && won.value() != null) {
      stats.migrationCopy();
      target.stats.migrationCopy();
    }
    return answer;
  }

  /** Awaits every reply ({@code null} entries: none sent); null when some node failed. */
  private List<CacheNode.Held> await(List<NodeCalls.Sent<CacheNode.Held>> sent) {
    List<CacheNode.Held> held = new ArrayList<>(sent.size());
    boolean failed = false;
    for (NodeCalls.Sent<CacheNode.Held> request : sent) {
      CacheNode.Held h = request == null ? null : calls.awaitRead(request);
      failed |= request != null && h == null;
      held.add(h);
    }
    return failed ? null : held;
  }

  /**
   * The indexes of {@code consulted} from the oldest node to the newest: the previous owners from
   * the oldest, the target after those older than it ({@code newer} of them are newer).
   */
  private static int[] byAge(int size, int newer) {
    int[] order = new int[size];
    int at = 0;
    for (int i = size - 1; i > newer; i--) {
      order[at++] = i;
    }
    order[at++] = 0;
    for (int i = newer; i > 0; i--) {
      order[at++] = i;
    }
    return order;
  }

  /**
   * The oldest node holding an entry of its own, not a vouch for a newer ring's target; the target
   * (index 0) when none does.
   */
  private static int winner(List<CacheNode.Held> held, int[] byAge) {
    for (int i : byAge) {
      if (held.get(i).holds() && !vouch(held.get(i))) {
        return i;
      }
    }
    return 0;
  }

  /**
   * Whether every node older than the {@code winner} vouches for the winner's copy: one holding
   * nothing may have lost a newer write of a JVM on its ring, which the server evicted or lost in a
   * restart, so the winner's copy may be older; one vouching for another node's copy was written by
   * a JVM on a ring this one skipped (overlapping changes), whose newest entry is on a node this
   * read does not consult.
   */
  private static boolean olderVouch(
      List<CacheNode.Held> held, int[] byAge, int winner, List<NodeSlot> consulted) {
    if (Planted.on(Planted.NO_VOUCH)) {
      return true;
    }
    String winnerId = consulted.get(winner).id();
    for (int i : byAge) {
      if (i == winner) {
        return true;
      }
      Marker older = held.get(i).marker();
      if (older == null || !older.vouchesFor(winnerId)) {
        return false;
      }
    }
    return true;
  }

  private static boolean vouch(CacheNode.Held held) {
    return held.marker() != null && held.marker().isVouch();
  }

  /**
   * Within a migration window: the key's value on a previous owner, copied to its target with the
   * time it has left unless a write of the key began meanwhile.
   */
  private Object readPrevious(Routing r, NodeSlot target, RoutingKey routingKey, ValueType type) {
    long stamp = stripes.stamp(routingKey.text());
    CacheNode.StoredEntry entry = migration.readPrevious(r, target, routingKey, type);
    if (entry == null) {
      return null;
    }
    Duration left = entry.ttl() != null ? entry.ttl() : ttl;
    if (writes.fill(routingKey, entry.value(), stamp, left)) {
      stats.migrationCopy();
      target.stats.migrationCopy();
    }
    return entry.value();
  }

  /**
   * Reads many keys: the keys grouped by target, one request per node, every request sent before
   * any is awaited. Returns the stored values (a cached null as {@link NullValue#INSTANCE}) of the
   * hits; counts each key's hit or miss. A node that fails makes its keys misses.
   */
  Map<String, Object> getAllPresent(Collection<String> routingKeys, ValueType type) {
    Routing r = router.forCache(name);
    Map<NodeSlot, List<String>> byTarget = new LinkedHashMap<>();
    Map<String, Object> found = new HashMap<>();
    for (String key : routingKeys) {
      Object kept = near == null ? null : near.value(r, key, type, stats);
      if (kept != null) {
        found.put(key, kept); // bulk reads use what the near cache holds, and do not fill it
        continue;
      }
      NodeSlot target = r.target(key);
      if (target == null || !r.readable(target, key)) {
        if (target != null) stats.safetyMiss();
        miss(target);
      } else if (migration.consult(r, target, key) != null) {
        // a key whose previous owners are consulted is read as a single read is
        Object value = read(r, target, RoutingKey.of(key), type);
        if (value != null) {
          found.put(key, value);
        }
      } else {
        byTarget.computeIfAbsent(target, t -> new ArrayList<>()).add(key);
      }
    }
    Map<NodeSlot, NodeCalls.Sent<Map<String, Object>>> sent = new LinkedHashMap<>();
    byTarget.forEach(
        (target, keys) ->
            sent.put(target, calls.send(target, () -> target.node.getAll(keys, type))));
    sent.forEach(
        (target, request) -> {
          List<String> keys = byTarget.get(target);
          Map<String, Object> values = calls.awaitRead(request);
          for (String key : keys) {
            Object value = values == null ? null : values.get(key);
            if (value instanceof ValueRefusedException) {
              calls.refused(target);
              miss(target);
            } else if (value == null) {
              miss(target);
            } else {
              hits.hit(target);
              found.put(key, value);
            }
          }
        });
    return found;
  }

  void miss(NodeSlot target) {
    stats.miss();
    if (target != null) {
      target.stats.miss();
    }
  }
}
