package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.RingKeys;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.codec.MarkerBytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 42's first case, with the default {@code onRejoin}: two managers stand for two JVMs on the
 * same three real redis-servers. JVM A reaches the victim through a proxy that stops forwarding
 * (its pod throttled or partitioned from that server); JVM B sees nothing wrong. A ejects the
 * victim and readmits it: the server must keep the entries nobody changed, B must reload none of
 * them, and no read in A or B may return a value older than the last completed write. With {@code
 * onRejoin: flush} (the default before) A's readmission emptied the victim for B too: 975 keys to
 * 0, and B reloaded 977 of its 3,000.
 *
 * <p>And a JVM restarted while the node was out to it: its marks of the writes it sent elsewhere
 * went with its memory, so the new run, which has never reached the node, empties it when it
 * readmits it ({@code NodeSlot#answered}); keeping it served the older value for ever.
 */
class RedisOneJvmHiccupIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  private static final ValueType STRING = ValueType.of(String.class);
  private static final int KEYS = 3_000;
  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  /** The database the caches stand in front of: each key's version, bumped by every write. */
  private final Map<String, Integer> database = new ConcurrentHashMap<>();

  private final AtomicInteger bLoads = new AtomicInteger();
  private final ManagerHooks.Clock clock = new ManagerHooks.Clock();
  private final String victim = fleet.nodeIds().get(0);
  private final List<AutoCloseable> closing = new ArrayList<>();
  private HoldingProxy proxy;
  private InterceptedCache b;

  @BeforeEach
  void start() throws Exception {
    proxy = HoldingProxy.start(port(fleet.server(victim).uri()));
    closing.add(proxy);
    ShardedCacheManager bManager = fleet.manager("{ retryAfter: 1s }");
    closing.add(bManager);
    b = InterceptedCache.of(bManager.cache("users"));
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    for (String id : fleet.nodeIds()) {
      fleet.server(id).command("FLUSHALL");
    }
  }

  private static int port(String uri) {
    return Integer.parseInt(uri.replaceAll(".*:(\\d+).*", "$1"));
  }

  /** JVM A: the same nodes, the victim's through the proxy; probes by hand on {@link #clock}. */
  private ShardedCacheManager jvmA() {
    String victimUri = fleet.server(victim).uri();
    String yaml =
        fleet.nodesYaml().replace(victimUri, "redis://127.0.0.1:" + proxy.port())
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: { retryAfter: 1s }\n";
    ShardedCacheManager a =
        ManagerHooks.startingManualManager(ChashConfigs.parse(yaml, "chash.yaml"), clock);
    closing.add(a);
    return a;
  }

  private String current(String key) {
    return key + "#" + database.getOrDefault(key, 0);
  }

  /** A write: the database first, then the cache, as a service writes through. */
  private void write(InterceptedCache cache, String key) {
    database.merge(key, 1, Integer::sum);
    cache.put(key, current(key));
  }

  /** Reads every key through {@code cache}, checking none is older than the database's version. */
  private void readAll(InterceptedCache cache, List<String> keys, AtomicInteger loads)
      throws Throwable {
    for (String key : keys) {
      String expected = current(key); // no write runs meanwhile: the last completed one
      Object read =
          cache.get(
              key,
              STRING,
              () -> {
                loads.incrementAndGet();
                return current(key);
              },
              false,
              false);
      assertThat(read).as("read of %s", key).isEqualTo(expected);
    }
  }

  private List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      keys.add(b.routingKey(i, "hiccup"));
    }
    return keys;
  }

  /** The victim's entries that hold a value (an unknown copy may be replaced by a tombstone). */
  private int valuesOnVictim() {
    RedisServerProcess server = fleet.server(victim);
    int values = 0;
    for (String key : server.allKeys("chash:users:*")) {
      byte[] entry = server.getEntry(key);
      if (entry != null && MarkerBytes.decode(entry) == null) {
        values++;
      }
    }
    return values;
  }

  private List<String> ownedByVictim(ShardedCacheManager a, List<String> keys, int n) {
    List<String> owned =
        keys.stream().filter(k -> RingKeys.owner(a, k).equals(victim)).limit(n).toList();
    assertThat(owned).hasSize(n);
    return owned;
  }

  /** Reads the victim's keys through A, with the proxy paused, until A ejects the victim. */
  private void ejectInA(ShardedCacheManager a, InterceptedCache aUsers, List<String> onVictim) {
    proxy.pause();
    for (int i = 0; i < 30 && RingKeys.isLive(a, victim); i++) {
      assertThat(aUsers.getIfPresent(onVictim.get(i), STRING)).isNull(); // a timeout is a miss
    }
    assertThat(RingKeys.isLive(a, victim)).as("%s ejected in A", victim).isFalse();
  }

  private void readmitInA(ShardedCacheManager a) {
    proxy.resume();
    clock.advance(RETRY_AFTER);
    ManagerHooks.probe(a);
    assertThat(RingKeys.isLive(a, victim)).as("%s readmitted in A", victim).isTrue();
  }

  @Test
  void oneJvmsHiccup_leavesTheServersEntriesToEveryJvm_andNoReadIsStale() throws Throwable {
    List<String> keys = keys();
    readAll(b, keys, bLoads);
    assertThat(bLoads).hasValue(KEYS);
    ShardedCacheManager a = jvmA();
    InterceptedCache aUsers = InterceptedCache.of(a.cache("users"));
    AtomicInteger aLoads = new AtomicInteger();
    readAll(aUsers, keys, aLoads);
    assertThat(aLoads).hasValue(0);
    List<String> onVictim = ownedByVictim(a, keys, 50);
    int before = valuesOnVictim();

    ejectInA(a, aUsers, onVictim);
    List<String> written = onVictim.subList(30, 50); // A writes 20 of the victim's keys meanwhile
    written.forEach(key -> write(aUsers, key));
    readmitInA(a);

    // the victim lost only what A wrote elsewhere while it was out (deleted before it served A)
    assertThat(valuesOnVictim()).isEqualTo(before - written.size());
    bLoads.set(0);
    readAll(b, keys, bLoads);
    assertThat(bLoads).as("B's reloads").hasValue(written.size());
    aLoads.set(0);
    readAll(aUsers, keys, aLoads);
    assertThat(aLoads).as("A's reloads").hasValue(0); // B's loads filled the written keys again
  }

  @Test
  void aJvmRestartedWhileTheNodeWasOut_emptiesItWhenItFirstReachesIt() throws Throwable {
    List<String> keys = keys().subList(0, 300);
    readAll(b, keys, bLoads);
    ShardedCacheManager a1 = jvmA();
    InterceptedCache a1Users = InterceptedCache.of(a1.cache("users"));
    List<String> onVictim = ownedByVictim(a1, keys, 31);
    String key = onVictim.get(30);
    assertThat(a1Users.getIfPresent(key, STRING)).isEqualTo(current(key)); // the victim answered
    ejectInA(a1, a1Users, onVictim);
    write(a1Users, key); // to a stand-in; the victim's older copy is marked in A1 only
    a1.close(); // the JVM restarts: its marks are gone

    ShardedCacheManager a2 = jvmA(); // the victim still out to it
    InterceptedCache a2Users = InterceptedCache.of(a2.cache("users"));
    ejectInA(a2, a2Users, onVictim);
    readmitInA(a2);

    AtomicInteger loads = new AtomicInteger();
    readAll(b, List.of(key), loads); // not the version before A1's write
    readAll(a2Users, keys, loads);
  }
}
