package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The write path of one cache: puts, evictions, fills and their bulk forms, each under the same
 * rules.
 *
 * <ul>
 *   <li>A write goes to the key's target in the routing it was given. A copy written away from the
 *       key's home (while the home is out) is marked before it is sent, so it is never untracked,
 *       and lives at most {@code failover.fallbackTtl}; the home's copy is then stale.
 *   <li>A write that landed deletes the key on its previous owners ({@link Migration}).
 *   <li>A write whose routing generation ended while it ran deletes the key on its new target too,
 *       so a key that moved holds nothing older there.
 *   <li>A refused value deletes the key instead: the previous value must not stay readable.
 *   <li>A fill lands only if no write of its key began since its load did ({@link KeyStripes}), and
 *       is skipped while the target's last call failed: the caller has usually just waited out that
 *       node's timeout, and must not wait again for what is only an optimisation.
 *   <li>A new value's TTL is decided here, once ({@link #freshTtl}): the cache's ttl ({@code
 *       nullTtl} for a cached null) less a random part of up to {@code jitter} of it, so it is
 *       never longer than the configured ttl ({@link Lifetimes} stays a bound). A copy of an entry
 *       (migration) keeps the time it has left instead.
 * </ul>
 */
final class Writes {
  /** Most times a write follows the key to a new target while the routing keeps changing. */
  private static final int MAX_RECONCILES = 3;

  /**
   * The jitter taken off a TTL is one of this many equal steps (plus none), so that a bulk write
   * sends one request per node and step rather than per key: with {@code ttl: 10m, jitter: 10%} a
   * step is 234 ms.
   */
  static final int JITTER_STEPS = 1024;

  private final Router router;
  private final FailurePolicy policy;
  private final NodeCalls calls;
  private final Migration migration;
  private final KeyStripes stripes;
  private final StatsCounter stats;
  private final Duration fallbackTtl;
  private final String cacheName;
  private final Lifetimes lifetimes;
  private final Duration ttl;
  private final Duration nullTtl;
  private final double jitter;

  Writes(
      CacheConfig cache,
      Lifetimes lifetimes,
      Router router,
      FailurePolicy policy,
      NodeCalls calls,
      Migration migration,
      KeyStripes stripes,
      StatsCounter stats) {
    this.cacheName = cache.name();
    this.ttl = cache.ttl();
    this.nullTtl = cache.nullTtl();
    this.jitter = cache.jitter();
    this.lifetimes = lifetimes;
    this.router = router;
    this.policy = policy;
    this.calls = calls;
    this.migration = migration;
    this.stripes = stripes;
    this.stats = stats;
    this.fallbackTtl = policy.config().fallbackTtl();
  }

  /**
   * The TTL of a new value written now: the cache's ttl, or {@code nullTtl} for a cached null, less
   * a uniformly random number of {@link #JITTER_STEPS} steps of up to {@code jitter} of it; never
   * longer than that ttl. Null for no expiry.
   */
  Duration freshTtl(Object stored) {
    Duration base = stored == NullValue.INSTANCE && nullTtl != null ? nullTtl : ttl;
    if (base == null || jitter == 0) {
      return base;
    }
    long nanos;
    try {
      nanos = base.toNanos();
    } catch (ArithmeticException tooLong) {
      return base;
    }
    long step = (long) (nanos * jitter) / JITTER_STEPS;
    return Duration.ofNanos(nanos - step * ThreadLocalRandom.current().nextInt(JITTER_STEPS + 1));
  }

  /**
   * Stores {@code stored} (null: deletes the key) on its target in {@code r}, with a {@link
   * #freshTtl}.
   *
   * @return whether the write reached the node
   */
  boolean write(Routing r, RoutingKey routingKey, Object stored, boolean optional) {
    NodeSlot target = r.target(routingKey);
    Duration ttl = stored == null ? null : freshTtl(stored);
    if (stored == null
        && target != null
        && target.conditionalFor(routingKey)
        && atHome(r, target, routingKey)) {
      stored = router.deleted();
      ttl = stored == null ? null : router.window;
    }
    boolean landed = writeOnce(r, target, routingKey, stored, optional, ttl);
    if (landed && stored instanceof Marker) stats.tombstone();
    if (landed || !optional) {
      followMoves(r, java.util.Collections.singletonMap(routingKey, target));
    }
    return landed;
  }

  /** {@link #fill(String, Object, long, Duration)} of a loaded value, with a {@link #freshTtl}. */
  boolean fill(RoutingKey routingKey, Object stored, long stamp) {
    return fill(routingKey, stored, stamp, freshTtl(stored));
  }

  /**
   * Stores a loaded value (or a copy from a previous owner, with the time it has left) on the key's
   * current target unless a write of the key began since {@code stamp} was taken.
   *
   * @return whether it landed
   */
  boolean fill(RoutingKey routingKey, Object stored, long stamp, Duration ttl) {
    Routing r = router.forCache(cacheName);
    NodeSlot target = r.target(routingKey);
    // only the landing holds the stripe; the deletes after it (previous owners, a new target) only
    // remove copies, so a write that begins meanwhile loses nothing, and a writer never waits for a
    // fill's call on a previous owner
    boolean landed =
        stripes.fillIfUnchanged(
            routingKey.text(),
            stamp,
            () -> writeOnce(r, target, routingKey, stored, true, ttl, false));
    if (landed) {
      migration.deletePrevious(r, target, routingKey);
      followMoves(r, java.util.Collections.singletonMap(routingKey, target));
    }
    return landed;
  }

  /**
   * A lease taken on a miss, before its load: where, and what the fill must find there. {@link
   * #NONE}: the rules between JVMs do not apply (the fill is an ordinary one); {@link #BUSY}: the
   * target holds a value or another load's lease; {@link #REFUSED}: the call failed, the target
   * just failed, or a previous owner would not take the lease. A load that took neither of the last
   * two is not filled. The three are told apart by identity.
   */
  static final class Lease {
    static final Lease NONE = new Lease(null, null, null, List.of());
    static final Lease REFUSED = new Lease(null, null, null, List.of());

    /** The target answered that it holds a value or another load's lease: a fill may be near. */
    static final Lease BUSY = new Lease(null, null, null, List.of());

    /** The node the lease is on. */
    final NodeSlot at;

    /** The lease, or null when the fill must find {@link #seen} instead (a refresh). */
    final Marker marker;

    /** What a refresh found before its load. */
    final CacheNode.Held seen;

    /**
     * The key's previous owners that reads consult, which hold the same lease: the fill turns each
     * into a vouch for the target's new entry, unless a JVM on an older ring wrote there meanwhile.
     */
    final List<NodeSlot> previous;

    private Lease(NodeSlot at, Marker marker, CacheNode.Held seen, List<NodeSlot> previous) {
      this.at = at;
      this.marker = marker;
      this.seen = seen;
      this.previous = previous;
    }

    /**
     * Whether a fill that did not land may have been overtaken by a write in another JVM: its lease
     * was taken and is gone, or the entry a refresh saw was replaced. Only a fill on a node that
     * took neither ({@link #NONE}, {@link #REFUSED}, {@link #BUSY}) cannot tell.
     */
    boolean overtakenUnless(boolean landed) {
      return (marker != null || seen != null) && !landed;
    }
  }

  /** How long a lease lives: a load slower than this is not filled (Facebook's 10 s). */
  static final Duration LEASE_TTL = Duration.ofSeconds(10);

  /**
   * Takes a lease on the key's target before a load, so that a write or evict of the key in any JVM
   * while the load runs makes its fill fail (see {@link Marker}).
   */
  Lease lease(RoutingKey routingKey) {
    if (Planted.on(Planted.NO_LEASE)) {
      return Lease.NONE;
    }
    return atTarget(
        routingKey,
        target -> {
          Marker lease = Marker.lease();
          NodeCalls.Outcome taken = takeLease(target, routingKey.text(), lease);
          if (taken != NodeCalls.Outcome.LANDED) {
            return taken == NodeCalls.Outcome.NOT_HELD ? Lease.BUSY : Lease.REFUSED;
          }
          List<NodeSlot> previous = leasePrevious(target, routingKey, lease);
          return previous == null ? Lease.REFUSED : new Lease(target, lease, null, previous);
        });
  }

  /**
   * Within migration windows, the lease on each previous owner that reads consult, so that the fill
   * can leave a vouch there (reads serve the target's copy only while each such owner vouches for
   * it) and a write of a JVM on an older ring meanwhile, which replaces the lease, keeps it from
   * doing so. Null, with the leases taken given back, when one is refused: that owner holds a value
   * or another load's lease.
   */
  private List<NodeSlot> leasePrevious(NodeSlot target, RoutingKey routingKey, Marker lease) {
    List<NodeSlot> owners =
        Planted.on(Planted.NO_VOUCH)
            ? List.of()
            : migration.previousOwners(router.forCache(cacheName), target, routingKey);
    if (owners.isEmpty()) {
      return owners;
    }
    List<NodeSlot> taken = new java.util.ArrayList<>(owners.size());
    for (NodeSlot owner : owners) {
      if (calls.writeIf(
              owner, routingKey.text(), () -> owner.node.lease(routingKey.text(), lease, LEASE_TTL))
          != NodeCalls.Outcome.LANDED) {
        giveBackPrevious(routingKey, lease, taken);
        giveBack(routingKey, lease, target);
        return null;
      }
      taken.add(owner);
    }
    return taken;
  }

  /**
   * For a refresh-ahead reload: what the key's target holds before the load, which its fill must
   * still find (a write or evict in any JVM meanwhile makes it fail).
   */
  Lease seen(RoutingKey routingKey, ValueType type) {
    return atTarget(
        routingKey,
        target -> {
          CacheNode.Held seen = calls.awaitRead(calls.sendHeld(target, routingKey.text(), type));
          return seen == null ? Lease.REFUSED : new Lease(target, null, seen, List.of());
        });
  }

  /**
   * {@link Lease#NONE} unless the rules between JVMs apply to the key at its target, at its home;
   * {@link Lease#REFUSED} when that target just failed; else what {@code take} gets there.
   */
  private Lease atTarget(RoutingKey routingKey, java.util.function.Function<NodeSlot, Lease> take) {
    Routing r = router.forCache(cacheName);
    NodeSlot target = r.target(routingKey);
    if (target == null || !target.conditionalFor(routingKey) || !atHome(r, target, routingKey)) {
      return Lease.NONE;
    }
    return target.justFailed() ? Lease.REFUSED : take.apply(target);
  }

  /**
   * {@link #fill(String, Object, long)} under a lease: stores the value only if the lease (or what
   * a refresh saw) is still on the node it was taken on, and that node is still the key's target,
   * and no write of the key began in this JVM since {@code stamp}.
   *
   * @return whether it landed
   */
  boolean fill(RoutingKey routingKey, Object stored, long stamp, Lease lease) {
    if (lease == Lease.NONE) {
      return fill(routingKey, stored, stamp);
    }
    if (lease.at == null) {
      return false; // refused or busy: it holds no lease
    }
    Routing r = router.forCache(cacheName);
    NodeSlot target = r.target(routingKey);
    if (target != lease.at || !atHome(r, target, routingKey)) {
      giveBackPrevious(routingKey, lease.marker, lease.previous);
      return false; // the key moved while it loaded: its new target holds no lease of it
    }
    Duration ttl = freshTtl(stored);
    CopyMarks.Mark sent = target.marks.current(routingKey.text());
    boolean landed =
        putOver(target, routingKey.text(), lease.marker, lease.seen, stored, ttl, stamp);
    if (lease.marker != null && !landed) {
      stats.leaseLost(); // a refresh that found its entry replaced held no lease
      giveBackPrevious(routingKey, lease.marker, lease.previous);
    }
    if (landed) {
      target.marks.forget(routingKey.text(), sent);
      stats.put();
      target.stats.put();
      for (NodeSlot owner : lease.previous) {
        calls.writeIf(
            owner,
            routingKey.text(),
            () ->
                owner.node.putIfLeased(
                    routingKey.text(), lease.marker, Marker.vouch(target.id()), router.vouchTtl()));
      }
      migration.deletePreviousOutsideWindows(r, target, routingKey);
      followMoves(r, java.util.Collections.singletonMap(routingKey, target));
    }
    return landed;
  }

  /**
   * Gives back the lease of a load that will not fill (it failed, or its value is not cached), so
   * that the next miss of the key in any JVM can lease and fill it; a lease that is gone (filled
   * over, expired, replaced by a write) is left as it is. The lease may have replaced an evict's
   * tombstone, which tells a JVM on a newer ring that its copy of the key is older than the evict:
   * within migration windows it gives way to a tombstone for the window, never to nothing (the
   * fleet simulation found the stale read that nothing allows: seed 3511609473). A failed call
   * leaves the lease to its time to live.
   */
  void release(RoutingKey routingKey, Lease lease) {
    if (lease.marker == null) {
      return;
    }
    giveBackPrevious(routingKey, lease.marker, lease.previous);
    giveBack(routingKey, lease.marker, lease.at);
  }

  /** {@link #release} of the lease on the key's target. */
  private void giveBack(RoutingKey routingKey, Marker lease, NodeSlot at) {
    Marker deleted = router.deleted();
    String key = routingKey.text();
    calls.writeIf(
        at,
        key,
        deleted == null
            ? () -> at.node.deleteIfLeased(key, lease)
            : () -> at.node.putIfLeased(key, lease, deleted, router.window));
  }

  /**
   * {@link #release} of the lease on the key's previous owners: it leaves nothing there, which
   * reads take for no vouch (a miss), whatever the lease replaced. A tombstone would do no better,
   * and the next read would move it over the target's entry, which may be another JVM's newer
   * write.
   */
  private void giveBackPrevious(RoutingKey routingKey, Marker lease, List<NodeSlot> owners) {
    String key = routingKey.text();
    for (NodeSlot at : owners) {
      calls.writeIf(at, key, () -> at.node.deleteIfLeased(key, lease));
    }
  }

  /**
   * Before a write of this ring reaches a key's target: a tombstone for the window on each previous
   * owner that reads consult ({@link Migration#previousOwners}), which the write's deletes there
   * remove once the target has it. Reads take an older ring's entry on a previous owner for newer
   * than the target's, since only JVMs on that ring write there; without the fence, a read between
   * this write's landing and its delete there found the new value on the target and the older one
   * on the previous owner, and moved the older one over the newer (fleet simulation, seed
   * 354154235). A read that meets the fence misses, and may replace the target's value with the
   * tombstone: a miss, never an older value.
   */
  private void fencePrevious(Routing r, NodeSlot target, RoutingKey routingKey) {
    List<NodeSlot> owners =
        router.window.isZero() || Planted.on(Planted.NO_FENCE)
            ? List.of()
            : migration.previousOwners(r, target, routingKey);
    if (owners.isEmpty()) {
      return; // the common case, a write with no previous owner to fence: nothing allocated
    }
    Marker fence = router.deleted();
    for (NodeSlot owner : owners) {
      if (calls.write(owner, routingKey, fence, router.window) == NodeCalls.Outcome.LANDED)
        stats.fence();
    }
  }

  /** Stores a lease on the node for a move onto nothing; null when it was not stored. */
  Marker leaseFor(NodeSlot target, String routingKey) {
    Marker lease = Marker.lease();
    return takeLease(target, routingKey, lease) == NodeCalls.Outcome.LANDED ? lease : null;
  }

  private NodeCalls.Outcome takeLease(NodeSlot target, String routingKey, Marker lease) {
    NodeCalls.Outcome taken =
        calls.writeIf(target, routingKey, () -> target.node.lease(routingKey, lease, LEASE_TTL));
    if (taken == NodeCalls.Outcome.LANDED) stats.leaseTaken();
    return taken;
  }

  /**
   * The move of a read under the rules between JVMs: a previous owner held a newer entry than the
   * target ({@code entry}: its value, or its tombstone), which is stored on the target only if the
   * target still holds {@code atTarget} (or, when it held nothing, still the {@code lease} taken
   * before the previous owners were read again: "nothing" can come back after a write, when a
   * joining JVM empties the node) and no write of the key began in this JVM since {@code stamp};
   * then replaced by a {@link Marker#vouch} on each previous owner only if that owner still holds
   * what was read there, so a write that a JVM on an older ring made meanwhile stays, and wins.
   *
   * @return whether the entry was copied to the target
   */
  boolean move(
      Routing r,
      NodeSlot target,
      String routingKey,
      CacheNode.Held atTarget,
      Marker lease,
      Object entry,
      Duration ttl,
      long stamp,
      java.util.List<NodeSlot> from,
      java.util.List<CacheNode.Held> seen) {
    if (target.justFailed()) {
      return false;
    }
    boolean unconditional = Planted.on(Planted.UNCONDITIONAL_MOVE);
    if (!(unconditional
        ? calls.write(target, RoutingKey.of(routingKey), entry, ttl) == NodeCalls.Outcome.LANDED
        : putOver(target, routingKey, lease, atTarget, entry, ttl, stamp))) {
      return false;
    }
    boolean vouch = !Planted.on(Planted.NO_VOUCH);
    for (int i = 0; i < from.size(); i++) {
      NodeSlot owner = from.get(i);
      CacheNode.Held held = seen.get(i);
      if (!owner.justFailed()) {
        calls.writeIf(
            owner,
            routingKey,
            () ->
                unconditional
                    ? evicted(owner, routingKey)
                    : vouch
                        ? owner.node.putIf(
                            routingKey, held, Marker.vouch(target.id()), router.vouchTtl())
                        : owner.node.deleteIf(routingKey, held));
      }
    }
    followMoves(r, java.util.Collections.singletonMap(RoutingKey.of(routingKey), target));
    return true;
  }

  /**
   * Deletes the target's copy a read found unvouched, if the target still holds exactly that: an
   * older node holding nothing may have lost a newer write (evicted, restarted), and once the
   * windows end no read consults it, so the copy would be served although older.
   */
  void dropUnvouched(NodeSlot target, String routingKey, CacheNode.Held held) {
    if (!target.justFailed() && !Planted.on(Planted.KEEP_UNVOUCHED)) {
      calls.writeIf(target, routingKey, () -> target.node.deleteIf(routingKey, held));
    }
  }

  private static boolean evicted(NodeSlot owner, String routingKey) {
    owner.node.evict(routingKey);
    return true;
  }

  /**
   * Stores {@code stored} on the target only over what this JVM left or saw there: its {@code
   * lease} when it took one, else what it {@code saw}; and only if no write of the key began in
   * this JVM since {@code stamp}. {@return whether it landed}
   */
  private boolean putOver(
      NodeSlot target,
      String routingKey,
      Marker lease,
      CacheNode.Held saw,
      Object stored,
      Duration ttl,
      long stamp) {
    return stripes.fillIfUnchanged(
        routingKey,
        stamp,
        () -> {
          lifetimes.wrote(ttl);
          return calls.writeIf(
                  target,
                  routingKey,
                  () ->
                      lease != null
                          ? target.node.putIfLeased(routingKey, lease, stored, ttl)
                          : target.node.putIf(routingKey, saw, stored, ttl))
              == NodeCalls.Outcome.LANDED;
        });
  }

  /**
   * The bulk form of {@link #write}: the same rules for each key, grouped by target (and by whether
   * the key is at home, and by its {@link #freshTtl}, which decide its TTL), one request per group,
   * every request sent before any is awaited.
   *
   * @return the keys whose values landed
   */
  Set<String> writeAll(Routing r, Map<String, Object> stored, boolean optional) {
    record Group(NodeSlot target, boolean atHome, Duration ttl) {}
    Map<String, RoutingKey> keys = new java.util.HashMap<>(); // each key's, made once
    stored.keySet().forEach(key -> keys.put(key, RoutingKey.of(key)));
    Map<Group, Map<String, Object>> groups = new LinkedHashMap<>();
    stored.forEach(
        (key, value) -> {
          RoutingKey routingKey = keys.get(key);
          NodeSlot target = r.target(routingKey);
          if (admit(r, target, routingKey, value, optional)) {
            boolean atHome = atHome(r, target, routingKey);
            Duration fresh = freshTtl(value);
            groups
                .computeIfAbsent(
                    new Group(target, atHome, atHome ? fresh : offHomeTtl(fresh)),
                    g -> new LinkedHashMap<>())
                .put(key, value);
          }
        });
    Map<Group, NodeCalls.Sent<Map<String, ValueRefusedException>>> sent = new LinkedHashMap<>();
    Map<String, CopyMarks.Mark> marksSent = new java.util.HashMap<>();
    groups.forEach(
        (group, values) ->
            values
                .keySet()
                .forEach(
                    key -> {
                      fencePrevious(r, group.target, keys.get(key));
                      marksSent.put(key, group.target.marks.current(keys.get(key).text()));
                    }));
    groups.forEach(
        (group, values) -> {
          lifetimes.wrote(group.ttl);
          sent.put(
              group,
              calls.sendWrite(
                  group.target,
                  values.keySet(),
                  () -> group.target.node.putAll(values, group.ttl)));
        });
    Set<String> written = new HashSet<>();
    sent.forEach(
        (group, request) -> {
          Map<String, Object> values = groups.get(group);
          Map<String, ValueRefusedException> refusals = calls.awaitWrite(request, values.keySet());
          if (refusals == null) {
            values
                .keySet()
                .forEach(key -> migration.deletePrevious(r, group.target, keys.get(key)));
            return;
          }
          for (String key : values.keySet()) {
            if (refusals.containsKey(key)) {
              calls.refused(group.target);
              writeOnce(r, group.target, keys.get(key), null, false, null); // no older value stays
            } else {
              landed(
                  r,
                  group.target,
                  keys.get(key),
                  values.get(key),
                  group.atHome,
                  true,
                  marksSent.get(key));
              written.add(key);
            }
          }
        });
    Map<RoutingKey, NodeSlot> attempted = new java.util.HashMap<>();
    groups.forEach(
        (group, values) -> values.keySet().forEach(k -> attempted.put(keys.get(k), group.target)));
    followMoves(r, attempted);
    return written;
  }

  /** The TTL of a copy away from its key's home: at most {@code failover.fallbackTtl}. */
  Duration offHomeTtl(Duration ttl) {
    return ttl == null || ttl.compareTo(fallbackTtl) > 0 ? fallbackTtl : ttl;
  }

  /** One write on {@code target}, with its marks and the deletes on previous owners. */
  private boolean writeOnce(
      Routing r,
      NodeSlot target,
      RoutingKey routingKey,
      Object stored,
      boolean optional,
      Duration ttl) {
    return writeOnce(r, target, routingKey, stored, optional, ttl, true);
  }

  /** {@link #writeOnce}, leaving the deletes on previous owners to the caller when told to. */
  private boolean writeOnce(
      Routing r,
      NodeSlot target,
      RoutingKey routingKey,
      Object stored,
      boolean optional,
      Duration ttl,
      boolean deletePrevious) {
    if (!admit(r, target, routingKey, stored, optional)) {
      return false;
    }
    if (deletePrevious) {
      fencePrevious(r, target, routingKey);
    }
    boolean atHome = atHome(r, target, routingKey);
    Duration given = stored == null || atHome ? ttl : offHomeTtl(ttl);
    if (stored != null) {
      lifetimes.wrote(given);
    }
    CopyMarks.Mark sent = target.marks.current(routingKey.text());
    switch (calls.write(target, routingKey, stored, given)) {
      case LANDED -> {
        landed(r, target, routingKey, stored, atHome, deletePrevious, sent);
        return true;
      }
      case REFUSED -> {
        if (stored != null) {
          writeOnce(r, target, routingKey, null, false, null); // the old value must not stay
        } // a delete refused (a key too long to send) has nothing to delete: no such key is stored
        return false;
      }
      default -> {
        // marked unknown on the target; the caller saw the write complete, so older copies on
        // previous owners go too (a later clean-up of the mark must not expose them)
        migration.deletePrevious(r, target, routingKey);
        return false;
      }
    }
  }

  /**
   * Whether the write may be sent: there is a target, an optional write's target did not just fail,
   * and a copy away from home could be marked first. Marks the home's copy stale when the write
   * goes elsewhere.
   */
  private boolean admit(
      Routing r, NodeSlot target, RoutingKey routingKey, Object stored, boolean optional) {
    if (target == null) {
      if (!optional) {
        // every node is out: no copy anywhere may outlive this write
        policy.staleCopy(r.home(routingKey), routingKey.text());
        migration.deletePrevious(r, null, routingKey);
      }
      return false;
    }
    if (optional && target.justFailed()) {
      return false;
    }
    if (!atHome(r, target, routingKey)) {
      if (stored != null && !target.marks.beginOffHomeWrite(routingKey.text())) {
        policy.trackingFull();
        return false;
      }
      policy.staleCopy(
          r.home(routingKey), routingKey.text()); // a put or an evict that went elsewhere
    }
    return true;
  }

  private static boolean atHome(Routing r, NodeSlot target, RoutingKey routingKey) {
    return !r.degraded || r.home(routingKey) == target;
  }

  /**
   * A write landed: its marks and counters, and the deletes on the key's previous owners. Only the
   * mark the key had when the write was sent ({@code sent}) is forgotten or replaced: a write of
   * the key that failed after this one was sent may have left this one's older value there.
   */
  private void landed(
      Routing r,
      NodeSlot target,
      RoutingKey routingKey,
      Object stored,
      boolean atHome,
      boolean deletePrevious,
      CopyMarks.Mark sent) {
    if (stored == null || atHome) {
      target.marks.forget(routingKey.text(), sent);
    } else {
      target.marks.written(routingKey.text(), r.generation, sent);
    }
    if (stored != null && !(stored instanceof Marker)) {
      stats.put();
      target.stats.put();
    }
    if (deletePrevious) {
      migration.vouchPrevious(r, target, routingKey);
    }
  }

  /**
   * After writes in generation {@code r} (each key with the target it was written to, null when it
   * had none): while the generation has ended since, deletes each key on its new target, where
   * readers may look now (at most {@link #MAX_RECONCILES} generations on). A write that failed is
   * followed too: the caller saw it complete, so no older copy may be readable anywhere.
   */
  private void followMoves(Routing r, Map<RoutingKey, NodeSlot> writtenTo) {
    Routing before = r;
    Map<RoutingKey, NodeSlot> last = writtenTo;
    for (int i = 0; i < MAX_RECONCILES && !last.isEmpty(); i++) {
      Routing now = router.current();
      if (now == before || now.closed) {
        return;
      }
      Map<RoutingKey, NodeSlot> moved = new java.util.HashMap<>();
      last.forEach(
          (key, was) -> {
            NodeSlot next = now.target(key);
            if (next != null && next != was) {
              writeOnce(now, next, key, null, false, null);
              moved.put(key, next);
            }
          });
      before = now;
      last = moved;
    }
  }
}
