package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.KeyLayout;
import io.github.chash.internal.cache.InterceptedCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The property over keys and values a caller controls (issue 43): random keys and values ({@link
 * RandomKeys}) put, read, loaded, evicted and batched in a cache of each key layout, checked
 * against a model of the last write of each key. Whatever the key or value, no exception reaches
 * the caller, no node is ejected or counts an error, and a read returns a miss, its loader's value
 * or the last value written for that very key, never another key's. One subclass per node type
 * gives the managers.
 *
 * <p>Seeded and replayable: each run prints its seed, and a failure names it with the operation;
 * {@code -Dchash.randomKeys.seed=N} replays a run, {@code -Dchash.randomKeys.ops=N} makes it longer
 * than the {@value #DEFAULT_OPS} operations CI runs per layout.
 */
public abstract class RandomKeysScenarios {
  private static final int DEFAULT_OPS = 1_000;
  private static final int OPS = Integer.getInteger("chash.randomKeys.ops", DEFAULT_OPS);
  private static final int GOOD_KEYS = 20;

  /** A cached null in the model: read back as {@code null} through the typed view. */
  private static final Object CACHED_NULL = new Object();

  /**
   * The failover settings of the remote managers: a generous timeout, so that a machine whose cores
   * are busy with other builds never times out a call. What is under test is input, not slowness;
   * any error or ejection here is one the key or value caused.
   */
  protected static final String FAILOVER =
      "{ failureLimit: 3, retryAfter: 30s, timeout: 5s, onRejoin: flush }";

  /**
   * {@return a manager with cache {@code users} (ttl 10m) in the given layout, its nodes answering}
   */
  protected abstract ShardedCacheManager manager(KeyLayout layout);

  @ParameterizedTest
  @EnumSource(KeyLayout.class)
  void randomKeysAndValues_neverThrowEjectOrServeAnotherKeysValue(KeyLayout layout) {
    long seed = Long.getLong("chash.randomKeys.seed", new Random().nextLong());
    System.out.printf(
        "%s %s: seed %d (replay with -Dchash.randomKeys.seed=%d)%n",
        getClass().getSimpleName(), layout, seed, seed);
    try (ShardedCacheManager manager = manager(layout)) {
      new Run(manager, new Random(seed), "seed " + seed + ", " + layout).run();
    }
  }

  /** One run: a model of the last write of each key, and the operations checked against it. */
  private static final class Run {
    private final ShardedCacheManager manager;
    private final TypedCache<String, Object> users;
    private final InterceptedCache intercepted;
    private final Random random;
    private final RandomKeys keys;
    private final String replay;
    private final List<String> known = new ArrayList<>();

    /** Key to the last value written (or {@link #CACHED_NULL}); no entry: never written. */
    private final Map<String, Object> model = new HashMap<>();

    private int loads;

    Run(ShardedCacheManager manager, Random random, String replay) {
      this.manager = manager;
      this.users = manager.cache("users").typed(String.class, Object.class);
      this.intercepted = InterceptedCache.of(manager.cache("users"));
      this.random = random;
      this.keys = new RandomKeys(random);
      this.replay = replay;
    }

    void run() {
      int nodes = manager.ring().nodes().size();
      for (int i = 0; i < GOOD_KEYS; i++) {
        users.put("good" + i, "v" + i);
      }
      for (int op = 0; op < OPS; op++) {
        String key = pickKey();
        String what = "op " + op + " on key " + RandomKeys.describe(key);
        try {
          step(key, what);
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError(replay + ", " + what + ": " + e, e);
        }
      }
      int hits = 0;
      for (int i = 0; i < GOOD_KEYS; i++) {
        hits += ("v" + i).equals(users.getIfPresent("good" + i)) ? 1 : 0;
      }
      long ejections = 0;
      long errors = 0;
      StringBuilder nodeCounts = new StringBuilder();
      for (Map.Entry<String, CacheStats> e : manager.nodeStats().entrySet()) {
        CacheStats node = e.getValue();
        ejections += node.ejectionCount();
        errors += node.errorCount();
        nodeCounts.append(
            String.format(
                "%n    %s: %d puts, %d hits, %d misses, %d refused, %d errors, %d ejections",
                e.getKey(),
                node.putCount(),
                node.hitCount(),
                node.missCount(),
                node.refusedCount(),
                node.errorCount(),
                node.ejectionCount()));
      }
      System.out.printf(
          "  %d operations over %d keys, %d loads%s%n", OPS, known.size(), loads, nodeCounts);
      assertThat(ejections).as(replay + ": ejections").isZero();
      assertThat(errors).as(replay + ": node errors").isZero();
      assertThat(manager.ring().nodes()).as(replay + ": live nodes").hasSize(nodes);
      assertThat(hits).as(replay + ": good keys still served").isEqualTo(GOOD_KEYS);
    }

    /** Mostly keys seen before, so reads meet writes; now and then a new one. */
    private String pickKey() {
      if (known.isEmpty() || random.nextInt(4) == 0) {
        String key = keys.key(known);
        if (!known.contains(key)) {
          known.add(key);
        }
        return key;
      }
      return known.get(random.nextInt(known.size()));
    }

    private void step(String key, String what) {
      switch (random.nextInt(8)) {
        case 0, 1 -> {
          Object value = keys.value();
          users.put(key, value);
          model.put(key, value);
        }
        case 2, 3 -> assertReadable(key, users.getIfPresent(key), null);
        case 4 -> {
          Object loaded = random.nextInt(5) == 0 ? null : "loaded " + ++loads;
          Object got = users.get(key, k -> loaded);
          assertReadable(key, got, loaded);
          if (loaded != null && got == loaded) {
            model.put(key, loaded); // stored, or a write that did not land: a miss
          }
        }
        case 5 -> {
          users.evict(key);
          model.remove(key);
        }
        case 6 -> {
          // the interceptors' path, which caches a null (typed views never store one)
          intercepted.put(intercepted.key(key, "a random key"), null);
          model.put(key, CACHED_NULL);
        }
        default -> batch(key);
      }
    }

    /** getAll or putAll of the key and a few others, batched per node as the node types do. */
    private void batch(String first) {
      List<String> batch = new ArrayList<>(List.of(first));
      for (int i = random.nextInt(5); i > 0; i--) {
        batch.add(pickKey());
      }
      if (random.nextBoolean()) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String key : batch) {
          values.put(key, keys.value());
        }
        users.putAll(values);
        model.putAll(values);
        return;
      }
      Map<String, Object> found = users.getAll(batch);
      assertThat(batch).as("getAll answers only keys it was asked").containsAll(found.keySet());
      found.forEach((key, value) -> assertReadable(key, value, null));
    }

    /**
     * A read of {@code key} returned {@code got}: a miss ({@code null}), the loader's {@code
     * loaded}, or the last value written for this key; a cached null reads as {@code null}.
     */
    private void assertReadable(String key, Object got, Object loaded) {
      if (got == null || (loaded != null && got == loaded)) {
        return;
      }
      Object last = model.get(key);
      if (last == null || last == CACHED_NULL || !Objects.deepEquals(got, last)) {
        throw new AssertionError(
            "read "
                + describeValue(got)
                + ", but the last value written for this key is "
                + (last == null ? "none" : describeValue(last))
                + ownerOf(got));
      }
    }

    /** Names the keys whose last value the read returned: the collision, if there is one. */
    private String ownerOf(Object got) {
      List<String> owners = new ArrayList<>();
      model.forEach(
          (key, value) -> {
            if (Objects.deepEquals(value, got)) {
              owners.add(RandomKeys.describe(key));
            }
          });
      return owners.isEmpty() ? "" : "; it is the value of " + owners;
    }

    private static String describeValue(Object value) {
      if (value == CACHED_NULL) {
        return "a cached null";
      }
      if (value instanceof byte[] bytes) {
        return "a byte[" + bytes.length + "]";
      }
      return value instanceof String s ? "a string of " + RandomKeys.describe(s) : value.toString();
    }
  }
}
