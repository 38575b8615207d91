package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.text.Durations;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The nodes of a running manager and every change to them: another configuration, a node added,
 * removed or reweighted. A change connects (and empties) new nodes before they get traffic, builds
 * the next ring off the cache's path, then publishes it as the next routing generation; the ring it
 * replaces stays a {@link Prior} for the migration window (misses read the keys' previous owners)
 * and until its leftovers are proven gone (swept, or expired on nodes that cannot list their keys);
 * while it stays, every write of a moved key deletes it on its previous owner. Removed nodes are
 * closed then.
 *
 * <p>A node's identity is its id: a node removed and added back while a prior still reaches it is
 * the same slot (same connection, marks and health), so a flapping node adds no chain. The chain of
 * priors holds at most {@link #MAX_PRIORS}. Changes are serialised; cache operations never wait for
 * one.
 */
final class Membership {
  private static final System.Logger LOG = System.getLogger(Membership.class.getName());

  /** Keys a leftover sweep examines a second on each node, so it never crowds out traffic. */
  static final int SWEEP_KEYS_PER_SECOND = 20_000;

  /**
   * The most previous rings kept at once: a change beyond it settles the oldest at once by emptying
   * the nodes that may hold its leftovers.
   */
  static final int MAX_PRIORS = 4;

  /** A node as planned: its configuration (null for a ready-made node), weight and slot if kept. */
  private record Planned(String id, int weight, NodeConfig config, NodeSlot kept) {
    Node ringNode() {
      return config != null ? config.withWeight(weight).toNode() : Node.of(id, weight);
    }
  }

  /** What the membership needs of the manager's caches. */
  interface Caches {
    /** Room in every cache's per-node counters for node indexes below {@code nodes}. */
    void ensureNodes(int nodes);

    /** Creates the caches of a configuration that do not exist yet. */
    void addMissing(ChashConfig config);

    /** A copy of the key was deleted by a leftover sweep. */
    void leftoverDeleted(String routingKey);

    /**
     * {@return whether some cache is verbatim: its leftovers are not listed by any sweep, so they
     * must expire before the priors go (see {@link VerbatimKeys})}
     */
    default boolean hasVerbatim() {
      return false;
    }
  }

  private final Router router;
  private final FailurePolicy failures;
  private final NodeFactories factories;
  private final Caches caches;
  private final AtomicInteger marks;
  private final Lifetimes lifetimes;
  private final NearCaches near;
  private ChashConfig config; // null when every node is ready-made
  private RingSettings settings;
  private MigrationConfig migration;
  private List<Planned> members;

  /** The nodes the operator drained, kept out across reloads until readmitted. */
  private final Drains drains = new Drains();

  /** Nodes removed whose slots a prior still reaches, by id: re-adding one reuses its slot. */
  private final Map<String, Planned> retired = new LinkedHashMap<>();

  private int nextIndex;

  Membership(
      Router router,
      FailurePolicy failures,
      NodeFactories factories,
      Caches caches,
      AtomicInteger marks,
      Lifetimes lifetimes,
      ChashConfig config,
      RingSettings settings,
      MigrationConfig migration,
      Map<String, NodeSlot> slots,
      Map<String, NodeConfig> configs,
      NearCaches near) {
    this.near = near;
    this.router = router;
    this.failures = failures;
    this.factories = factories;
    this.caches = caches;
    this.marks = marks;
    this.lifetimes = lifetimes;
    this.config = config;
    this.settings = settings;
    this.migration = migration;
    List<Planned> planned = new ArrayList<>();
    slots.forEach(
        (id, slot) -> planned.add(new Planned(id, slot.ringNode.weight(), configs.get(id), slot)));
    this.members = planned;
    this.nextIndex = slots.size();
  }

  /**
   * Moves to another configuration (a reload: a watched file, a membership source, a caller's own):
   * its ring settings, nodes and weights, and new caches. The operator's drains hold across it, by
   * {@link Drains#keepOut}: a drained node it names stays out until readmitted, and a drained node
   * it no longer names is forgotten.
   */
  synchronized void reconfigure(ChashConfig next) {
    Objects.requireNonNull(next, "next");
    warnIfLate(next, Instant.now());
    for (ChashConfig skipped : skippedRings(next)) {
      reconfigureTo(skipped);
    }
    reconfigureTo(next);
  }

  /**
   * The rings the configuration replaces ({@code migration.replaces}) that are newer than the one
   * this JVM runs, oldest first: this JVM missed their changes (two changes close together reached
   * it as one), and changes through each, as a JVM started during the rollout does. Other JVMs ran
   * them and wrote where they place keys; without them among this JVM's priors its writes would not
   * delete there, and a JVM that ran them would read its own older write there as an older ring's
   * newer one (fleet simulation, seed 1076068417: a value filled on a skipped ring's owner moved
   * over a newer put). None when this JVM's ring is not among them.
   */
  private List<ChashConfig> skippedRings(ChashConfig next) {
    List<MigrationConfig.Replaces> replaced = next.migration().replaces();
    List<ChashConfig> skipped = new ArrayList<>();
    for (int newer = indexOfRunning(next) - 1;
        newer >= 0 && !Planted.on(Planted.SKIPPED_RINGS_SKIPPED);
        newer--) {
      skipped.add(next.withNodes(replaced.get(newer).nodes()));
    }
    return skipped;
  }

  /**
   * Where the ring this JVM runs stands among those {@code next} replaces (newest first); -1 when
   * it is not among them.
   */
  private int indexOfRunning(ChashConfig next) {
    List<String> running = members.stream().map(Planned::id).toList();
    List<MigrationConfig.Replaces> replaced = next.migration().replaces();
    for (int i = 0; i < replaced.size(); i++) {
      if (ids(replaced.get(i)).equals(running)) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> ids(MigrationConfig.Replaces replaced) {
    return replaced.nodes().stream().map(NodeConfig::id).toList();
  }

  /** {@link #reconfigure} to one configuration. */
  private void reconfigureTo(ChashConfig next) {
    Drains.Applied applied = drains.keepOut(next.nodes());
    install(
        applied.nodes().size() == next.nodes().size() ? next : next.withNodes(applied.nodes()),
        applied.drained());
  }

  /**
   * Warns when this JVM takes a change more than one window after its rollout began: the change
   * names the ring this JVM runs among those it replaces ({@code migration.replaces}), and that
   * entry's {@code since} is over a window ago. The JVMs that changed first stopped reading this
   * ring's owners when their windows ended, while this JVM still wrote there, so reads between them
   * were not guaranteed meanwhile (the rollout's first ask, operations.md). Nothing can be mended
   * now; said at WARNING, the operator learns the rollout was too slow for its window. A reload
   * that does not move this JVM off a replaced ring (it already runs the new one) says nothing.
   */
  private void warnIfLate(ChashConfig next, Instant now) {
    Duration window = next.migration().window();
    int running = indexOfRunning(next);
    if (running < 0 || window.isZero()) {
      return;
    }
    MigrationConfig.Replaces replaced = next.migration().replaces().get(running);
    if (!replaced.inRollout(now, window)) {
      LOG.log(
          Level.WARNING,
          () ->
              "this JVM takes the change from "
                  + ids(replaced)
                  + " "
                  + Durations.format(Duration.between(replaced.since(), now).withNanos(0))
                  + " after its rollout began ("
                  + replaced.since()
                  + "), past the migration window of "
                  + Durations.format(window)
                  + ": the JVMs that changed first no longer read the owners this JVM wrote"
                  + " to, so reads between them were not guaranteed; roll out within the"
                  + " window or widen migration.window");
    }
  }

  /**
   * {@link #install}s a configuration with the drains that go with it, published first: a reader
   * that saw the ring's "reconfigured" line, or the ring itself, never finds the drains before it
   * (a node then in neither the ring nor the drains). A configuration that cannot be installed
   * leaves the drains as they were.
   */
  private void install(ChashConfig next, Map<String, NodeConfig> drainsAfter) {
    Map<String, NodeConfig> before = drains.replace(drainsAfter);
    try {
      install(next);
    } catch (RuntimeException | Error e) {
      drains.replace(before);
      throw e;
    }
  }

  /** Moves to a configuration as it is; the drains are the caller's to keep. */
  private void install(ChashConfig next) {
    Map<String, Planned> now = byId(members);
    List<Planned> plan = new ArrayList<>();
    for (NodeConfig node : next.nodes()) {
      Planned current = now.containsKey(node.id()) ? now.get(node.id()) : retired.get(node.id());
      boolean keep =
          current != null && (current.config == null || sameServer(current.config, node));
      plan.add(new Planned(node.id(), node.weight(), node, keep ? current.kept : null));
    }
    apply(next, next.ring(), next.migration(), plan);
  }

  /**
   * {@link #reconfigure} to the current nodes changed by {@code change}; a change that would bring
   * a drained node back is refused (that is {@link #readmit}'s).
   */
  synchronized void changeNodes(UnaryOperator<List<NodeConfig>> change, String what) {
    List<NodeConfig> configured = configured(what);
    List<NodeConfig> next = change.apply(configured);
    drains.refuseDrained(next);
    install(base(configured).withNodes(next));
  }

  /**
   * Drains a node for the operator: removes it as {@link #changeNodes} does, and keeps it out
   * across reloads until {@link #readmit}.
   *
   * @throws IllegalArgumentException if it is unknown, already drained or the last node
   */
  synchronized void drain(String id) {
    if (drains.contains(id)) {
      throw new IllegalArgumentException("node \"" + id + "\" is already drained");
    }
    List<NodeConfig> configured = configured("drain");
    List<NodeConfig> next = new ArrayList<>(configured);
    NodeConfig node = configuredNode(configured, id);
    next.remove(node);
    if (next.isEmpty()) {
      throw new IllegalArgumentException(
          "node \"" + id + "\" is the last node; a sharded cache needs at least one");
    }
    install(base(configured).withNodes(next), drains.plus(node));
  }

  /**
   * Adds a drained node back, at the end of the nodes, with its configuration from the latest
   * {@link #reconfigure} that named it (or as it was drained).
   *
   * @throws IllegalArgumentException if it is not drained
   */
  synchronized void readmit(String id) {
    NodeConfig node = drains.configOf(id);
    List<NodeConfig> configured = configured("readmit");
    List<NodeConfig> next = new ArrayList<>(configured);
    next.add(node);
    install(base(configured).withNodes(next), drains.minus(id));
  }

  /** {@return the ids of the drained nodes, in id order; never waits for a change under way} */
  Set<String> drained() {
    return drains.ids();
  }

  /** The current nodes as configurations, for a change of them. */
  private List<NodeConfig> configured(String what) {
    List<NodeConfig> configured = new ArrayList<>();
    for (Planned p : members) {
      if (p.config == null) {
        throw new UnsupportedOperationException(
            what
                + " needs every node to come from a NodeConfig; node \""
                + p.id
                + "\" was given ready-made: reconfigure the manager with a full ChashConfig");
      }
      configured.add(p.config.withWeight(p.weight));
    }
    return configured;
  }

  /**
   * {@return the node of {@code id} among the configured nodes}
   *
   * @throws IllegalArgumentException naming the configured ids when there is none
   */
  static NodeConfig configuredNode(List<NodeConfig> configured, String id) {
    for (NodeConfig node : configured) {
      if (node.id().equals(id)) {
        return node;
      }
    }
    throw new IllegalArgumentException(
        "unknown node \""
            + id
            + "\"; configured nodes are "
            + configured.stream().map(NodeConfig::id).toList());
  }

  private ChashConfig base(List<NodeConfig> configured) {
    return config != null ? config : programmatic(configured);
  }

  /** The nodes of the current configuration, in order. */
  synchronized List<NodeConfig> nodeConfigs() {
    return members.stream()
        .filter(p -> p.config != null)
        .map(p -> p.config.withWeight(p.weight))
        .toList();
  }

  private ChashConfig programmatic(List<NodeConfig> nodes) {
    return ChashConfig.builder()
        .ring(settings)
        .failover(failures.config())
        .migration(migration)
        .nodes(nodes)
        .build();
  }

  private void apply(
      ChashConfig whole,
      RingSettings nextSettings,
      MigrationConfig nextMigration,
      List<Planned> plan) {
    if (plan.isEmpty()) {
      throw new IllegalArgumentException("a sharded cache needs at least one node; none was given");
    }
    // new nodes first, all connecting at once; a failure changes nothing
    Map<String, NodeSlot> slots = new LinkedHashMap<>();
    List<CacheNode> created = new ArrayList<>();
    List<Planned> placed = new ArrayList<>();
    Ring ring;
    try {
      for (Planned p : plan) {
        if (p.kept == null) {
          created.add(factories.create(p.config.withWeight(p.weight), whole));
        }
      }
      List<Node> nodes = plan.stream().map(Planned::ringNode).toList();
      ring = Rings.create(nextSettings, nodes); // fails before anything changed
    } catch (RuntimeException e) {
      created.forEach(CacheNode::close);
      throw e;
    }
    // the new nodes' slots, asked to report changes for the near caches before anything else
    List<NodeSlot> newSlots = new ArrayList<>();
    try {
      for (Planned p : plan) {
        if (p.kept == null) {
          NodeSlot slot =
              new NodeSlot(
                  created.get(newSlots.size()),
                  p.ringNode(),
                  nextIndex + newSlots.size(),
                  new CopyMarks(marks, ShardedCaches.MAX_MARKS));
          newSlots.add(slot);
          near.attach(slot, whole);
        }
      }
    } catch (RuntimeException e) {
      created.forEach(CacheNode::close);
      throw e;
    }
    nextIndex += newSlots.size();
    created.forEach(CacheNode::awaitReady);
    int made = 0;
    for (Planned p : plan) {
      NodeSlot slot = p.kept;
      if (slot == null) {
        slot = newSlots.get(made++);
        empty(slot);
      } else {
        slot.ringNode = p.ringNode(); // a new weight; stats, health and marks stay
      }
      slots.put(p.id, slot);
      placed.add(new Planned(p.id, p.weight, p.config, slot));
    }
    if (whole != null) {
      caches.addMissing(whole);
    }
    caches.ensureNodes(nextIndex); // the new caches too
    failures.recorder.nodesServed(slots.keySet());
    long window = nextMigration.window().toNanos();
    router.window = nextMigration.window();
    Routing before = router.current();
    long now = failures.now();
    Routing after = router.update(r -> r.reconfigured(ring, slots, now, now + window));
    if (LOG.isLoggable(Level.INFO)) {
      // the summary samples keys on both rings: only when someone reads it
      LOG.log(
          Level.INFO,
          "reconfigured: {0}; misses read the previous owners for {1}, then leftovers are swept",
          ChangeSummary.describe(before.ring, ring, config, whole),
          Durations.format(nextMigration.window()));
    }
    retire(placed);
    members = placed;
    config = whole;
    settings = nextSettings;
    migration = nextMigration;
    failures.schedule(this::sweepDue, window);
    if (after.priors.size() > MAX_PRIORS) {
      settleOldest(after.priors.subList(MAX_PRIORS, after.priors.size()));
    }
  }

  /** Keeps the slots of removed nodes that a prior still reaches, so a re-add finds them. */
  private void retire(List<Planned> placed) {
    Map<String, Planned> next = byId(placed);
    for (Planned p : members) {
      if (!next.containsKey(p.id)) {
        retired.put(p.id, p);
      }
    }
    retired.keySet().removeAll(next.keySet());
  }

  /**
   * More rings are kept than {@link #MAX_PRIORS}: the oldest are settled now, their leftovers gone
   * with every node that may hold them and stays reachable emptied of this library's entries (a
   * node that cannot be emptied is ejected, to be emptied before it serves again).
   */
  private void settleOldest(List<Prior> oldest) {
    // the nodes that stay reachable once these priors go; the others are closed by settle
    Routing now = router.current();
    Set<NodeSlot> reachable = new HashSet<>(now.slots());
    now.priors.stream().filter(p -> !oldest.contains(p)).forEach(p -> reachable.addAll(p.slots()));
    Set<NodeSlot> emptied = new HashSet<>();
    for (Prior prior : oldest) {
      for (NodeSlot slot : prior.slots()) {
        if (reachable.contains(slot) && emptied.add(slot)) {
          LOG.log(
              Level.WARNING,
              "node \"{0}\" emptied: more than {1} membership changes are waiting for their"
                  + " leftovers to go",
              slot.id(),
              MAX_PRIORS);
          emptyOrEject(slot, "because it holds leftovers of an old ring");
        }
      }
    }
    settle(oldest);
  }

  /**
   * A node this JVM did not route to before may hold copies written while others served its keys,
   * or left there before it was removed: it is emptied of this library's entries first, whatever
   * {@code onRejoin} says (that rule is for readmissions); if that fails it starts ejected, to be
   * emptied by its probe before it serves.
   */
  private void empty(NodeSlot slot) {
    emptyOrEject(slot, "because it could not be emptied when it joined");
  }

  private void emptyOrEject(NodeSlot slot, String why) {
    try {
      slot.node.clear();
    } catch (RuntimeException e) {
      failures.mustEmpty(slot, why + " (" + e.getMessage() + ")");
    }
  }

  /**
   * After a migration window: deletes from every serving node any routing reaches the copies of
   * keys whose home it is not (the home, not the current target: while a key's new owner is out,
   * its stand-in may be its previous owner, whose old copy must go all the same). A node that is
   * out is emptied before it serves again. A node that cannot list its keys keeps its leftovers
   * until they expire (the longest TTL written, {@link Lifetimes}): the priors stay until then, so
   * that writes keep deleting moved keys there. A node whose sweep fails is tried again after
   * {@code retryAfter}. Then forgets the settled priors and closes the nodes no routing reaches any
   * more.
   */
  void sweepDue() {
    Routing r = router.current();
    long now = failures.now();
    List<Prior> due = r.priors.stream().filter(p -> !p.settled && !p.inWindow(now)).toList();
    if (due.isEmpty() || r.closed) {
      return;
    }
    boolean complete = true;
    boolean listed = !caches.hasVerbatim(); // a verbatim cache's leftovers are never listed
    // every node a routing reaches: a removed node that a newer prior keeps may be added back
    for (NodeSlot slot : r.reachableSlots()) {
      if (slot.ejected) {
        slot.mustFlush = true; // its leftovers go with it when it rejoins
        continue;
      }
      try {
        long deleted = slot.node.deleteKeys(key -> isLeftover(key, slot), SWEEP_KEYS_PER_SECOND);
        if (deleted < 0) {
          listed = false;
        } else if (deleted > 0) {
          slot.stats.leftoverDeletions(deleted);
          LOG.log(Level.DEBUG, "swept {0} leftover copies from node \"{1}\"", deleted, slot.id());
        }
      } catch (RuntimeException e) {
        failures.failed(slot, e, true);
        complete = false;
      }
    }
    homesLast.forEach(Runnable::run);
    homesLast.clear();
    if (!complete) {
      failures.schedule(this::sweepDue, failures.config().retryAfter().toNanos());
      return;
    }
    due.forEach(p -> p.swept = true);
    if (!listed) {
      long expired = leftoversExpire(due);
      if (now - expired < 0) {
        if (expired != Lifetimes.FOREVER) {
          failures.schedule(this::sweepDue, expired - now);
        }
        return;
      }
    }
    settle(due);
  }

  /** Home copies a sweep with {@link Planted#SWEEP_HOME_LAST} deletes after its leftovers. */
  private final List<Runnable> homesLast = new java.util.ArrayList<>();

  /**
   * Deletes the home's copy before a leftover of it goes (see {@link #isLeftover}). A home that is
   * ejected or whose last call failed is not called: its copy is marked unknown, as when the call
   * fails (rule 6: one wait per node). Calling it cost the sweep one timeout per leftover, 48 s for
   * 480 keys of a frozen node (the simulated scenarios found it; 112-127 s on real Redis).
   */
  private void eraseHome(NodeSlot home, String routingKey) {
    if (home.skipsCalls()) {
      failures.unknownCopy(home, routingKey);
      return;
    }
    try {
      router.erase(home, routingKey);
    } catch (RuntimeException e) {
      failures.unknownCopy(home, routingKey);
    }
  }

  /** Whether a sweep deletes the key's copy on {@code slot}: the slot is not its home now. */
  private boolean isLeftover(String routingKey, NodeSlot slot) {
    Routing r = router.current();
    NodeSlot home = r.home(routingKey);
    if (home == slot) {
      return false;
    }
    long now = failures.now();
    for (Prior prior : r.priors) {
      if (prior.inWindow(now) && prior.home(routingKey) == slot) {
        return false; // reads still consult it, and move what it holds: a later sweep's
      }
    }
    if (slot.conditionalFor(routingKey) && home.conditionalFor(routingKey)) {
      // a JVM still on an older ring may have written this copy after the home's was made: the
      // home's goes first, so that no read finds it once this one is gone. Within windows it
      // becomes the window's tombstone: a JVM already on a newer ring, where this copy is the
      // key's target, reads this home as its previous owner, and must not take nothing there for
      // "no newer write" while this copy is still to go (fleet simulation, seed 4120415617)
      if (Planted.on(Planted.SWEEP_HOME_LAST)) {
        homesLast.add(() -> eraseHome(home, routingKey));
      } else {
        eraseHome(home, routingKey);
      }
    }
    caches.leftoverDeleted(routingKey);
    return true;
  }

  /**
   * When every leftover of the priors has expired: the last window's end, plus the longest TTL
   * written, plus one node timeout for writes still under way then; {@link Lifetimes#FOREVER} when
   * some entry has no expiry.
   */
  private long leftoversExpire(List<Prior> priors) {
    long longest = lifetimes.longestNanos();
    if (longest == Lifetimes.FOREVER) {
      return Lifetimes.FOREVER;
    }
    long lastWindow = priors.stream().mapToLong(p -> p.windowEndsNanos).max().orElse(0);
    return lastWindow + longest + failures.config().timeout().toNanos();
  }

  /**
   * The priors' leftovers are gone: forgets them, and closes the nodes no routing reaches any more
   * (under the membership's lock, so a change cannot pick up a node being closed).
   */
  private synchronized void settle(List<Prior> settled) {
    settled.forEach(p -> p.settled = true);
    Set<NodeSlot> reachable = new HashSet<>(router.current().reachableSlots());
    Routing after = router.update(Routing::withoutSettledPriors);
    reachable.removeAll(after.reachableSlots());
    for (NodeSlot gone : reachable) {
      LOG.log(
          Level.INFO,
          "node \"{0}\" closed: its keys have moved and its leftovers are gone",
          gone.id());
      retired.values().removeIf(p -> p.kept == gone);
      gone.marks.clear();
      gone.node.close();
    }
  }

  /** Every node any routing reaches, for closing the manager. */
  Set<NodeSlot> allSlots() {
    return router.current().reachableSlots();
  }

  private static Map<String, Planned> byId(List<Planned> planned) {
    Map<String, Planned> out = new LinkedHashMap<>();
    planned.forEach(p -> out.put(p.id, p));
    return out;
  }

  /**
   * Whether two configurations of a node reach the same server the same way (weight aside); the
   * read settings choose the node's connections, so a change of them is a new node.
   */
  private static boolean sameServer(NodeConfig a, NodeConfig b) {
    return a.type().equals(b.type())
        && a.maximumSize() == b.maximumSize()
        && Objects.equals(a.uri(), b.uri())
        && Objects.equals(a.name(), b.name())
        && a.readFrom() == b.readFrom()
        && a.replicaLag().equals(b.replicaLag());
  }
}
