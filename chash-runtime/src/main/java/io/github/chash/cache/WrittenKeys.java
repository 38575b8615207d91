package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The keys a verbatim cache wrote or filled in this JVM, which its {@code clear()} deletes one by
 * one: a verbatim cache cannot list its keys on a server (they are not under any prefix of its
 * own), and must never delete another application's. At most {@link #LIMIT} keys are kept, so a
 * long-running JVM does not grow without bound; past that, a clear misses the newer keys (logged
 * once) and they live until their TTL. Thread-safe.
 */
final class WrittenKeys {
  static final int LIMIT = 100_000;
  private static final System.Logger LOG = System.getLogger(WrittenKeys.class.getName());

  private final String cacheName;
  private final int limit;
  private final Set<String> keys = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean fullLogged = new AtomicBoolean();

  WrittenKeys(String cacheName) {
    this(cacheName, LIMIT);
  }

  /** {@return the written keys a cache keeps: a verbatim cache's, none (null) for another} */
  static WrittenKeys of(CacheConfig config) {
    return config.verbatim() ? new WrittenKeys(config.name()) : null;
  }

  WrittenKeys(String cacheName, int limit) {
    this.cacheName = cacheName;
    this.limit = limit;
  }

  /** The key may be written: a clear must delete it. */
  void add(String routingKey) {
    if (keys.size() < limit || keys.contains(routingKey)) {
      keys.add(routingKey);
    } else if (fullLogged.compareAndSet(false, true)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "verbatim cache \"{0}\" has written more than {1} keys since its last clear; a clear"
              + " deletes only those, the others expire at their ttl",
          cacheName,
          limit);
    }
  }

  /** {@return the keys to delete, forgotten here} */
  List<String> drain() {
    List<String> drained = new ArrayList<>(keys);
    drained.forEach(keys::remove);
    fullLogged.set(false);
    return drained;
  }
}
