package io.github.chash.cache;

import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Every call a cache makes on a node, with its accounting in one place: a node's answer ends its
 * failure streak ({@link FailurePolicy#succeeded}), a failure counts against it, a refused value is
 * counted as such and never against the node, and a write whose outcome is unknown marks the key's
 * copy there unknown, so no read trusts it until a write lands. A write of a key also drops the
 * key's near entry in this JVM ({@link NearCache}) before and after its call, whatever came of it:
 * a read that begins after the write completed never finds an older value there, and a read under
 * way when it ran never fills one.
 */
final class NodeCalls {
  /** What a read gives when it has no answer it may use: the node failed, or refused the value. */
  static final Object NOT_READ = new Object();

  /** Whether a write reached the node. */
  enum Outcome {
    LANDED,
    /** The node would not store the value; nothing was sent, the previous value may remain. */
    REFUSED,
    /** The node failed: whether the write landed is unknown, and the key is marked so. */
    FAILED,
    /** A conditional write found something else held: nothing was stored. */
    NOT_HELD
  }

  /** Starts reading what the node holds under the key; see {@link CacheNode#getHeld}. */
  Sent<CacheNode.Held> sendHeld(NodeSlot slot, String key, ValueType type) {
    return send(slot, NodeOperation.GET, () -> slot.node.getHeld(key, type));
  }

  /**
   * A conditional write ({@link CacheNode#putIf} and its kind); a failure marks the key unknown.
   */
  Outcome writeIf(NodeSlot slot, String key, java.util.function.BooleanSupplier call) {
    return writeIf(slot, key, NodeOperation.WRITE_IF, call);
  }

  private Outcome writeIf(
      NodeSlot slot, String key, NodeOperation op, java.util.function.BooleanSupplier call) {
    dropNear(slot, key);
    try {
      return writeIfNear(slot, key, op, call);
    } finally {
      dropNear(slot, key);
    }
  }

  private Outcome writeIfNear(
      NodeSlot slot, String key, NodeOperation op, java.util.function.BooleanSupplier call) {
    int failuresBefore = slot.failureTotal.get();
    CallTiming timing = CallTiming.start(stats, slot, op);
    boolean done;
    try {
      done = call.getAsBoolean();
    } catch (ValueRefusedException e) {
      CallTiming.end(timing, CallTiming.REFUSED, null);
      refused(slot);
      return Outcome.REFUSED;
    } catch (RuntimeException e) {
      CallTiming.end(timing, CallTiming.ERROR, e);
      if (!Planted.on(Planted.NO_UNKNOWN_MARK)) {
        policy.unknownCopy(slot, key);
      }
      failed(slot, e, true);
      return Outcome.FAILED;
    }
    CallTiming.end(timing, CallTiming.OK, null);
    policy.succeeded(slot, true, failuresBefore);
    return done ? Outcome.LANDED : Outcome.NOT_HELD;
  }

  private final FailurePolicy policy;
  private final StatsCounter stats;

  /** The cache's near cache, or null. */
  private final NearCache near;

  /**
   * @param policy the manager's failure policy
   * @param stats the counters of the cache making the calls
   * @param near the cache's near cache, or null when it has none
   */
  NodeCalls(FailurePolicy policy, StatsCounter stats, NearCache near) {
    this.policy = policy;
    this.stats = stats;
    this.near = near;
  }

  /** The key is written on the node: this cache's near entry goes, and the other managers'. */
  private void dropNear(NodeSlot slot, String key) {
    if (near != null) {
      near.invalidate(key);
    }
    slot.node.writing(key);
  }

  /** {@return the key's value on the node, null on a miss, or {@link #NOT_READ}} */
  Object get(NodeSlot slot, RoutingKey key, ValueType type) {
    return read(slot, key, type, false);
  }

  /** {@return the key's entry on the node with its time left, null on a miss, or NOT_READ} */
  Object getEntry(NodeSlot slot, RoutingKey key, ValueType type) {
    return read(slot, key, type, true);
  }

  // the read's kind as a flag, not a lambda: a capturing lambda was the hit's one allocation
  // besides its routing key wherever the JIT had not inlined the call
  private Object read(NodeSlot slot, RoutingKey key, ValueType type, boolean entry) {
    int failuresBefore = slot.failureTotal.get();
    CallTiming timing = CallTiming.start(stats, slot, NodeOperation.GET);
    try {
      Object value = entry ? slot.node.getEntry(key, type) : slot.node.get(key, type);
      CallTiming.end(timing, CallTiming.found(value), null);
      policy.succeeded(slot, false, failuresBefore);
      return value;
    } catch (ValueRefusedException e) {
      CallTiming.end(timing, CallTiming.REFUSED, null);
      policy.succeeded(slot, false, failuresBefore);
      refused(slot);
      return NOT_READ;
    } catch (RuntimeException e) {
      CallTiming.end(timing, CallTiming.ERROR, e);
      failed(slot, e, false);
      return NOT_READ;
    }
  }

  /**
   * Stores {@code stored} under the key, or deletes the key when it is null. A delete, and a
   * tombstone written in a value's place (an evict between JVMs, a fence), is reported as {@link
   * NodeOperation#EVICT}: what the caller asked for, not how it is stored.
   */
  Outcome write(NodeSlot slot, RoutingKey key, Object stored, Duration ttl) {
    return writeIf(
        slot,
        key.text(),
        stored == null || (stored instanceof Marker m && !m.isLease())
            ? NodeOperation.EVICT
            : NodeOperation.PUT,
        () -> {
          if (stored == null) {
            slot.node.evict(key);
          } else {
            slot.node.put(key, stored, ttl);
          }
          return true;
        });
  }

  /** A request sent to a node and not yet awaited (the bulk calls send every node's first). */
  static final class Sent<T> {
    final NodeSlot slot;
    private final int failuresBefore;
    private final CompletableFuture<T> reply;

    /** The call's timing, or null when it is not timed. */
    private final CallTiming timing;

    private Sent(NodeSlot slot, int failuresBefore, CompletableFuture<T> reply, CallTiming timing) {
      this.slot = slot;
      this.failuresBefore = failuresBefore;
      this.reply = reply;
      this.timing = timing;
    }
  }

  /** Sends a bulk read; a node that throws at once gives a failed reply instead. */
  <T> Sent<T> send(NodeSlot slot, Supplier<CompletableFuture<T>> call) {
    return send(slot, NodeOperation.GET_ALL, call);
  }

  private <T> Sent<T> send(NodeSlot slot, NodeOperation op, Supplier<CompletableFuture<T>> call) {
    int failuresBefore = slot.failureTotal.get();
    CallTiming timing = CallTiming.start(stats, slot, op);
    CompletableFuture<T> reply;
    try {
      reply = call.get();
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    return new Sent<>(slot, failuresBefore, reply, timing);
  }

  /** {@link #send} of a bulk write of {@code keys}, whose near entries go first. */
  <T> Sent<T> sendWrite(
      NodeSlot slot, Collection<String> keys, Supplier<CompletableFuture<T>> call) {
    keys.forEach(key -> dropNear(slot, key));
    return send(slot, NodeOperation.WRITE_ALL, call);
  }

  /** {@return a bulk read's reply, or null when the node failed or refused what it read} */
  <T> T awaitRead(Sent<T> sent) {
    return await(sent, false, java.util.List.of());
  }

  /**
   * {@return a bulk write's reply ({@link #sendWrite}), or null when the node failed: then every
   * one of {@code keys} is marked unknown there}
   */
  <T> T awaitWrite(Sent<T> sent, Collection<String> keys) {
    try {
      return await(sent, true, keys);
    } finally {
      keys.forEach(key -> dropNear(sent.slot, key));
    }
  }

  private <T> T await(Sent<T> sent, boolean write, Collection<String> keys) {
    T value;
    try {
      value = sent.reply.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof ValueRefusedException) {
        CallTiming.end(sent.timing, CallTiming.REFUSED, null);
        // nothing was sent or nothing usable came back: no failure of the node's
        policy.succeeded(sent.slot, write, sent.failuresBefore);
        refused(sent.slot);
        return null;
      }
      Throwable cause = e.getCause();
      CallTiming.end(sent.timing, CallTiming.ERROR, cause);
      keys.forEach(key -> policy.unknownCopy(sent.slot, key));
      failed(
          sent.slot,
          cause instanceof RuntimeException r ? r : new IllegalStateException(cause),
          write);
      return null;
    }
    CallTiming.end(sent.timing, write ? CallTiming.OK : result(value), null);
    policy.succeeded(sent.slot, write, sent.failuresBefore);
    return value;
  }

  /** A read's result: a held read found a value or not; a bulk read was answered. */
  private static String result(Object reply) {
    if (reply instanceof CacheNode.Held held) {
      return CallTiming.found(held.value());
    }
    return CallTiming.OK;
  }

  /** The node refused a value: counted for the cache and the node, never as a failure. */
  void refused(NodeSlot slot) {
    stats.refused();
    slot.stats.refused();
  }

  private void failed(NodeSlot slot, RuntimeException e, boolean write) {
    stats.error();
    policy.failed(slot, e, write);
  }
}
