package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.RoutingKey;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hit on a local node is served from the routing key the call built: the node gets that very key
 * (no string, no second key), and the whole hit allocates no more than the key itself.
 */
class LocalHitPathTest {
  private static final int KEYS = 1_024;

  /** A local node that records the keys its reads get, and whether a read took a string. */
  private static final class RecordingNode implements CacheNode {
    final CacheNode local;
    final List<RoutingKey> routingKeyReads = new ArrayList<>();
    int stringReads;

    RecordingNode(String id) {
      local = CacheNodes.local(id, 10_000);
    }

    @Override
    public Object get(RoutingKey key, ValueType type) {
      routingKeyReads.add(key);
      return local.get(key, type);
    }

    @Override
    public Object get(String key, ValueType type) {
      stringReads++;
      return local.get(key, type);
    }

    @Override
    public StoredEntry getEntry(String key, ValueType type) {
      stringReads++;
      return local.getEntry(key, type);
    }

    @Override
    public String id() {
      return local.id();
    }

    @Override
    public void put(String key, Object value, Duration ttl) {
      local.put(key, value, ttl);
    }

    @Override
    public void put(RoutingKey key, Object value, Duration ttl) {
      local.put(key, value, ttl);
    }

    @Override
    public void evict(String key) {
      local.evict(key);
    }

    @Override
    public void clear() {
      local.clear();
    }

    @Override
    public void ping() {}

    @Override
    public long estimatedSize() {
      return local.estimatedSize();
    }

    @Override
    public void close() {
      local.close();
    }
  }

  @Test
  void aHit_hands_theCallsOwnRoutingKey_toTheNode_andNoString() {
    List<RecordingNode> nodes = List.of(new RecordingNode("a"), new RecordingNode("b"));
    var builder = ShardedCaches.builder().ring(RingSettings.defaults());
    nodes.forEach(node -> builder.node(node, 1));
    try (ShardedCacheManager manager = builder.cache("users", Duration.ofHours(1)).build()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      for (long id = 0; id < 100; id++) {
        users.put(users.key(id), "user " + id);
      }
      for (long id = 0; id < 100; id++) {
        nodes.forEach(node -> node.routingKeyReads.clear());
        RoutingKey key = users.key(id);
        assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("user " + id);
        List<RoutingKey> got = new ArrayList<>();
        nodes.forEach(node -> got.addAll(node.routingKeyReads));
        assertThat(got).as("the keys the nodes read").hasSize(1);
        assertThat(got.get(0)).isSameAs(key);
      }
      assertThat(nodes).allSatisfy(node -> assertThat(node.stringReads).isZero());
    }
  }

  @Test
  void aHit_allocatesTheRoutingKeyAlone() throws ReflectiveOperationException {
    var builder = ShardedCaches.builder().ring(RingSettings.defaults());
    for (String id : new String[] {"a", "b", "c", "d"}) {
      builder.node(CacheNodes.local(id, 4 * KEYS), 1);
    }
    try (ShardedCacheManager manager = builder.cache("users", Duration.ofHours(1)).build()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      long[] ids = new long[KEYS];
      for (int i = 0; i < KEYS; i++) {
        ids[i] = 1_000_000_000L + 7_919L * i; // ten digits: "users:" and the id take 16 bytes
        users.put(users.key(ids[i]), "user " + i);
      }
      // what making the key alone costs, and what a hit costs, each once compiled
      long keyAlone = Long.MAX_VALUE;
      long hit = Long.MAX_VALUE;
      for (int round = 0; round < 20; round++) {
        keyAlone = Math.min(keyAlone, bytesPerCall(() -> keys(users, ids)));
        hit = Math.min(hit, bytesPerCall(() -> hits(users, ids)));
      }
      System.out.printf("bytes per call: key alone %d, hit %d%n", keyAlone, hit);
      // a string of the key (its text) would add 40 bytes or more, a second key as many
      assertThat(hit).as("bytes per hit; the key alone: %d", keyAlone).isLessThan(keyAlone + 24);
    }
  }

  private static Object sink;

  private static void keys(InterceptedCache users, long[] ids) {
    for (long id : ids) {
      sink = users.key(id);
    }
  }

  private static void hits(InterceptedCache users, long[] ids) {
    for (long id : ids) {
      Object value = users.getIfPresent(users.key(id), ValueType.OBJECT);
      if (value == null) {
        throw new AssertionError("a miss of " + id);
      }
      sink = value;
    }
  }

  /**
   * The bytes this thread allocates per key in one run of {@code calls}, over {@link #KEYS}; the
   * reflective reads of the counter add a few bytes per run, under one per key.
   */
  private static long bytesPerCall(Runnable calls) throws ReflectiveOperationException {
    // reflectively: the runtime's module does not read java.management, which tests compile in
    Object threads =
        Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean")
            .invoke(null);
    Method allocated =
        Class.forName("com.sun.management.ThreadMXBean")
            .getMethod("getThreadAllocatedBytes", long.class);
    long thread = Thread.currentThread().getId();
    long before = (long) allocated.invoke(threads, thread);
    calls.run();
    return ((long) allocated.invoke(threads, thread) - before) / KEYS;
  }
}
