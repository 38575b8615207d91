package io.github.chash.memcached;

import static io.github.chash.cache.RingKeys.isLive;
import static io.github.chash.cache.RingKeys.keysOwnedBy;
import static io.github.chash.cache.RingKeys.owner;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.HostileValues;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.TypedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.codec.JdkSerializationCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code RedisFaultIT}'s hostile cases that apply to memcached, against real servers (default item
 * limit, 1 MB), each asserting what the caller sees: oversized values (refused by the node, and by
 * the server's own limit), keys that UTF-8 would merge or that memcached cannot hold, decoding
 * bombs, bytes no chash node wrote, and another key's entry under a key.
 */
class MemcachedFaultIT {
  private static final String FAILOVER =
      "{ failureLimit: 3, retryAfter: 30s, timeout: 100ms, onRejoin: flush }";
  private static final ValueType STRING = ValueType.of(String.class);
  private static final MemcachedKeys KEYS = new MemcachedKeys("chash:");

  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Test
  void oversizedValue_isRefusedWithoutHarmingTheNodeAndLeavesNoOldValue() throws IOException {
    try (ShardedCacheManager manager =
        fleet.manager(FAILOVER, "memcached: { maxValueSize: 64KB }\n")) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keysOwnedBy(manager, users, "m2", 2);
      String key = keys.get(0);
      String foreign = keys.get(1);
      MemcachedServerProcess m2 = fleet.server("m2");
      users.put(key, "v1");

      users.put(key, "x".repeat(20 << 20)); // 20 MB: refused before it is sent

      assertThat(m2.exists(KEYS.dataKey(key))).as("v1 deleted, nothing sent").isFalse();
      assertThat(users.getIfPresent(key, STRING)).isNull();
      // a 100 KB value another client wrote is refused after it is received, never decoded
      users.put(foreign, "small");
      m2.setBytes(KEYS.dataKey(foreign), envelope(m2, foreign, javaBytes("y".repeat(100 << 10))));
      assertThat(users.getIfPresent(foreign, STRING)).isNull();

      CacheStats node = manager.nodeStats().get("m2");
      assertThat(node.refusedCount()).isEqualTo(2);
      assertThat(node.errorCount()).isZero();
      assertThat(isLive(manager, "m2")).isTrue();
      users.put(key, "small again");
      assertThat(users.getIfPresent(key, STRING)).isEqualTo("small again");
    }
  }

  @Test
  void valueBeyondTheServersItemLimit_isARefusalNotAFailure() {
    // the node would take 4 MB, the server (-I 1m, its default) takes 1 MB
    try (ShardedCacheManager manager =
        fleet.manager(FAILOVER, "memcached: { maxValueSize: 4MB }\n")) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keysOwnedBy(manager, users, "m1", 4);
      users.put(keys.get(0), "v1");
      for (String key : keys) {
        users.put(key, "z".repeat(2 << 20)); // sent; the server answers "object too large"
      }
      for (String key : keys) {
        assertThat(users.getIfPresent(key, STRING)).isNull();
      }
      CacheStats node = manager.nodeStats().get("m1");
      assertThat(node.refusedCount()).isEqualTo(keys.size());
      assertThat(node.errorCount()).isZero();
      assertThat(isLive(manager, "m1")).as("4 refusals in a row do not eject").isTrue();
    }
  }

  @Test
  void keysThatUtf8WouldMergeOrMemcachedCannotHold_stayDistinct() {
    try (ShardedCacheManager manager = fleet.manager(FAILOVER)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> ids =
          List.of(
              "\uD800",
              "\uDC00",
              "\uDFFF",
              "?",
              "with space",
              "tab\tand\nnewline",
              "caf\u00e9",
              "k".repeat(300),
              "k".repeat(301),
              "@all",
              "#hash");
      for (String id : ids) {
        users.put(users.routingKey(id, "test"), "value of " + id);
      }
      for (String id : ids) {
        assertThat(users.getIfPresent(users.routingKey(id, "test"), STRING))
            .as(id)
            .isEqualTo("value of " + id);
      }
      List<String> serverKeys = new ArrayList<>();
      for (String id : ids) {
        serverKeys.add(KEYS.dataKey(users.routingKey(id, "test")));
      }
      assertThat(serverKeys).doesNotHaveDuplicates();
      for (String serverKey : serverKeys) {
        assertThat(serverKey.length()).isLessThanOrEqualTo(250);
        assertThat(MemcachedKeys.isSafe(serverKey)).as(serverKey).isTrue();
      }
    }
  }

  /**
   * Keys memcached cannot hold, on a verbatim cache (the key sent as given): the caller's mistake,
   * refused before it is sent, never a failure of the node. They used to eject both healthy nodes
   * and turn 20/20 hits into 0/20 (issue 43, point 2).
   */
  @Test
  void verbatimKeysMemcachedCannotHold_areRefusedWithoutEjectingAnyNode() {
    try (ShardedCacheManager manager =
        fleet.manager(FAILOVER, io.github.chash.config.KeyLayout.VERBATIM)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      for (int i = 0; i < 20; i++) {
        users.put(users.routingKey("good:" + i, "test"), "v" + i);
      }
      List<String> bad = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        bad.add("john smith" + i); // a space
      }
      bad.addAll(
          List.of("tab\tkey", "new\nline", "cr\rkey", "nul\0key", "caf\u00e9", "x".repeat(300)));
      for (String given : bad) {
        String key = users.routingKey(given, "test"); // the verbatim form: sent as given
        users.put(key, "bad");
        users.evict(key);
        assertThat(users.getIfPresent(key, STRING)).as(given).isNull();
      }

      int hits = 0;
      for (int i = 0; i < 20; i++) {
        String key = users.routingKey("good:" + i, "test");
        hits += ("v" + i).equals(users.getIfPresent(key, STRING)) ? 1 : 0;
        assertThat(fleet.server(owner(manager, key)).getBytes("good:" + i))
            .as("stored as given")
            .isNotNull();
      }
      assertThat(hits).isEqualTo(20);
      long ejections = 0;
      long errors = 0;
      for (CacheStats node : manager.nodeStats().values()) {
        ejections += node.ejectionCount();
        errors += node.errorCount();
      }
      assertThat(ejections).isZero();
      assertThat(errors).isZero();
      assertThat(manager.ring().nodes()).hasSize(3);
      // each bad key's put, evict and read is refused before it is sent (an evict may be sent
      // to more than one node: its home and the key's fallback)
      assertThat(manager.cache("users").stats().refusedCount())
          .isGreaterThanOrEqualTo(3L * bad.size());
    }
  }

  /**
   * A read of a verbatim key memcached cannot hold, through a view of any value type: a miss, and
   * the loader's value; its evict is a refusal too. The node's single get used to hand its refusal
   * back as the value, so a caller reading {@code Object}s was given the {@code
   * ValueRefusedException} itself, and its evict failed, counting against the node (both found by
   * {@code MemcachedRandomKeysIT}, which saw both nodes ejected).
   */
  @Test
  void verbatimKeyMemcachedCannotHold_readsAsAMissAndLoads() {
    try (ShardedCacheManager manager =
        fleet.manager(FAILOVER, io.github.chash.config.KeyLayout.VERBATIM)) {
      TypedCache<String, Object> users = manager.cache("users").typed(String.class, Object.class);
      List<String> bad = List.of("john smith", "nul\0key", "caf\u00e9", "x".repeat(251));
      for (String key : bad) {
        assertThat(users.getIfPresent(key)).as(key).isNull();
        assertThat(users.get(key, k -> "loaded")).as(key).isEqualTo("loaded");
        users.evict(key);
      }
      long refused = 0;
      for (CacheStats node : manager.nodeStats().values()) {
        refused += node.refusedCount();
        assertThat(node.errorCount()).isZero();
        assertThat(node.ejectionCount()).isZero();
      }
      assertThat(refused).as("each read refused before it was sent").isPositive();
    }
  }

  @Test
  void anotherKeysEntry_underAKey_isAMissNotItsValue() {
    try (ShardedCacheManager manager = fleet.manager(FAILOVER)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keysOwnedBy(manager, users, "m3", 2);
      MemcachedServerProcess m3 = fleet.server("m3");
      users.put(keys.get(0), "a's value");
      // what a hash collision would leave: the entry of keys[0] under the server key of keys[1]
      m3.setBytes(KEYS.dataKey(keys.get(1)), m3.getBytes(KEYS.dataKey(keys.get(0))));

      assertThat(users.getIfPresent(keys.get(1), STRING)).isNull();
      assertThat(users.getIfPresent(keys.get(0), STRING)).isEqualTo("a's value");
      assertThat(manager.nodeStats().get("m3").errorCount()).isZero();
    }
  }

  @Test
  void decodingBombsAndForeignBytes_areMissesWithoutErrorsOrExhaustedMemory() throws IOException {
    try (ShardedCacheManager manager = fleet.manager(FAILOVER)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keysOwnedBy(manager, users, "m3", 3);
      MemcachedServerProcess m3 = fleet.server("m3");
      users.put(keys.get(0), "first"); // the generation counters exist from here on
      // 27 bytes: a long[] whose length field says 100,000,000 (800 MB if allocated)
      byte[] arrayBomb = javaBytes(new long[0]);
      assertThat(arrayBomb).hasSize(27);
      int length = 100_000_000;
      for (int i = 0; i < 4; i++) {
        arrayBomb[23 + i] = (byte) (length >>> (24 - 8 * i));
      }
      m3.setBytes(KEYS.dataKey(keys.get(0)), envelope(m3, keys.get(0), arrayBomb));
      // nesting far deeper than any cache value
      Object[] deep = new Object[1];
      Object[] inner = deep;
      for (int i = 0; i < 500; i++) {
        Object[] next = new Object[1];
        inner[0] = next;
        inner = next;
      }
      m3.setBytes(KEYS.dataKey(keys.get(1)), envelope(m3, keys.get(1), javaBytes(deep)));
      // bytes of some other memcached client
      m3.setBytes(KEYS.dataKey(keys.get(2)), "not ours".getBytes(StandardCharsets.UTF_8));

      for (String key : keys) {
        assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
      }
      CacheStats node = manager.nodeStats().get("m3");
      assertThat(node.refusedCount()).isEqualTo(3);
      assertThat(node.errorCount()).isZero();
      assertThat(isLive(manager, "m3")).isTrue();
    }
  }

  /**
   * Issue 27: nested hash sets took 732 ms to read at 24 levels on memcached; every depth from 20
   * to 40 is a refused value, never an error, and the node stays live.
   */
  @Test
  void hashSetBombs_areRefusedValuesAndTheNodeStaysLive() throws IOException {
    try (ShardedCacheManager manager = fleet.manager(FAILOVER)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keysOwnedBy(manager, users, "m2", 21);
      MemcachedServerProcess m2 = fleet.server("m2");
      users.put(keys.get(0), "first"); // the generation counters exist from here on
      long slowest = 0;
      for (int depth = 20; depth <= 40; depth++) {
        String key = keys.get(depth - 20);
        byte[] bomb = javaBytes(HostileValues.hashSetBomb(depth));
        m2.setBytes(KEYS.dataKey(key), envelope(m2, key, bomb));
        long start = System.nanoTime();
        assertThat(users.getIfPresent(key, ValueType.OBJECT)).as("depth %d", depth).isNull();
        slowest = Math.max(slowest, System.nanoTime() - start);
      }
      CacheStats node = manager.nodeStats().get("m2");
      System.out.printf(
          "%n=== memcached hash set bombs of 20 to 40 levels: refused %d, errors %d, slowest read"
              + " %.1f ms%n",
          node.refusedCount(), node.errorCount(), slowest / 1e6);
      assertThat(node.refusedCount()).isEqualTo(21);
      assertThat(node.errorCount()).isZero();
      assertThat(isLive(manager, "m2")).isTrue();
    }
  }

  /** An entry of the routing key under the server's current generation counters. */
  private static byte[] envelope(MemcachedServerProcess server, String routingKey, byte[] payload) {
    long global = Envelope.generationOf(server.getBytes(KEYS.globalGenerationKey()));
    long namespace =
        Envelope.generationOf(
            server.getBytes(KEYS.namespaceGenerationKey(MemcachedKeys.namespace(routingKey))));
    assertThat(global).as("global generation").isNotZero();
    assertThat(namespace).as("namespace generation").isNotZero();
    return new Envelope(global, namespace, 0, MemcachedKeys.fullKey(routingKey), payload).encode();
  }

  private static byte[] javaBytes(Object value) throws IOException {
    if (value instanceof String s) {
      return new JdkSerializationCodec(List.of()).encode(s);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    return bytes.toByteArray();
  }
}
