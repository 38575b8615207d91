package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.lang.System.Logger.Level;
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
 * and until the leftover sweep after it removed the copies the moves left behind. Removed nodes are
 * closed then. Changes are serialised; cache operations never wait for one.
 */
final class Membership {
  private static final System.Logger LOG = System.getLogger(Membership.class.getName());

  /** Keys a leftover sweep examines a second on each node, so it never crowds out traffic. */
  static final int SWEEP_KEYS_PER_SECOND = 20_000;

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
  }

  private final Router router;
  private final FailurePolicy failures;
  private final NodeFactories factories;
  private final Caches caches;
  private final AtomicInteger marks;
  private ChashConfig config; // null when every node is ready-made
  private RingSettings settings;
  private MigrationConfig migration;
  private List<Planned> members;
  private int nextIndex;

  Membership(
      Router router,
      FailurePolicy failures,
      NodeFactories factories,
      Caches caches,
      AtomicInteger marks,
      ChashConfig config,
      RingSettings settings,
      MigrationConfig migration,
      Map<String, NodeSlot> slots,
      Map<String, NodeConfig> configs) {
    this.router = router;
    this.failures = failures;
    this.factories = factories;
    this.caches = caches;
    this.marks = marks;
    this.config = config;
    this.settings = settings;
    this.migration = migration;
    List<Planned> planned = new ArrayList<>();
    slots.forEach(
        (id, slot) -> planned.add(new Planned(id, slot.ringNode.weight(), configs.get(id), slot)));
    this.members = planned;
    this.nextIndex = slots.size();
  }

  /** Moves to another configuration: its ring settings, nodes and weights, and new caches. */
  synchronized void reconfigure(ChashConfig next) {
    Objects.requireNonNull(next, "next");
    Map<String, Planned> now = byId(members);
    List<Planned> plan = new ArrayList<>();
    for (NodeConfig node : next.nodes()) {
      Planned current = now.get(node.id());
      boolean keep =
          current != null && (current.config == null || sameServer(current.config, node));
      plan.add(new Planned(node.id(), node.weight(), node, keep ? current.kept : null));
    }
    apply(next, next.ring(), next.migration(), plan);
  }

  /** {@link #reconfigure} to the current nodes changed by {@code change}. */
  synchronized void changeNodes(UnaryOperator<List<NodeConfig>> change, String what) {
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
    List<NodeConfig> next = change.apply(configured);
    ChashConfig base = config != null ? config : programmatic(configured);
    reconfigure(base.withNodes(next));
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
    created.forEach(CacheNode::awaitReady);
    int made = 0;
    for (Planned p : plan) {
      NodeSlot slot = p.kept;
      if (slot == null) {
        CacheNode node = created.get(made++);
        slot =
            new NodeSlot(
                node, p.ringNode(), nextIndex++, new CopyMarks(marks, ShardedCaches.MAX_MARKS));
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
    long window = nextMigration.window().toNanos();
    Routing before = router.current();
    router.update(r -> r.reconfigured(ring, slots, failures.now() + window));
    String summary = ChangeSummary.describe(before.ring, ring, config, whole);
    members = placed;
    config = whole;
    settings = nextSettings;
    migration = nextMigration;
    LOG.log(
        Level.INFO,
        "reconfigured: {0}; misses read the previous owners for {1}, then leftovers are swept",
        summary,
        io.github.chash.internal.text.Durations.format(nextMigration.window()));
    failures.schedule(this::sweepDue, window);
  }

  /**
   * A node this JVM did not route to before may hold copies written while others served its keys:
   * it is emptied first ({@code onRejoin: flush}, as a readmitted node is); if that fails it starts
   * ejected, to be emptied by its probe before it serves.
   */
  private void empty(NodeSlot slot) {
    if (failures.config().onRejoin() != OnRejoin.FLUSH) {
      return;
    }
    try {
      slot.node.clear();
    } catch (RuntimeException e) {
      failures.mustEmpty(
          slot, "because it could not be emptied when it joined (" + e.getMessage() + ")");
    }
  }

  /**
   * After a migration window: deletes from every serving node the copies of keys it no longer
   * serves, then forgets the priors whose windows ended and closes the nodes no routing reaches any
   * more. A node that cannot be swept is tried again after {@code retryAfter}.
   */
  void sweepDue() {
    Routing r = router.current();
    long now = failures.now();
    List<Prior> due = r.priors.stream().filter(p -> !p.swept && !p.inWindow(now)).toList();
    if (due.isEmpty() || r.closed) {
      return;
    }
    boolean complete = true;
    for (NodeSlot slot : r.slots()) {
      if (slot.ejected) {
        // emptied when it rejoins with flush; with keep its leftovers must still go
        complete &= failures.config().onRejoin() == OnRejoin.FLUSH;
        continue;
      }
      try {
        long deleted =
            slot.node.deleteKeys(
                key -> {
                  boolean leftover = router.current().target(key) != slot;
                  if (leftover) {
                    caches.leftoverDeleted(key);
                  }
                  return leftover;
                },
                SWEEP_KEYS_PER_SECOND);
        if (deleted > 0) {
          slot.stats.leftoverDeletions(deleted);
          LOG.log(Level.DEBUG, "swept {0} leftover copies from node \"{1}\"", deleted, slot.id());
        }
      } catch (RuntimeException e) {
        failures.failed(slot, e, true);
        complete = false;
      }
    }
    if (!complete) {
      failures.schedule(this::sweepDue, failures.config().retryAfter().toNanos());
      return;
    }
    due.forEach(p -> p.swept = true);
    Set<NodeSlot> reachable = new HashSet<>(r.reachableSlots());
    Routing after = router.update(Routing::withoutSweptPriors);
    reachable.removeAll(after.reachableSlots());
    for (NodeSlot gone : reachable) {
      LOG.log(
          Level.INFO,
          "node \"{0}\" closed: its keys have moved and its leftovers are swept",
          gone.id());
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

  /** Whether two configurations of a node reach the same server the same way (weight aside). */
  private static boolean sameServer(NodeConfig a, NodeConfig b) {
    return a.type() == b.type()
        && a.maximumSize() == b.maximumSize()
        && Objects.equals(a.uri(), b.uri())
        && Objects.equals(a.name(), b.name());
  }
}
