package io.github.chash.cache;

import io.github.chash.internal.cache.NullValue;
import io.github.chash.ring.RoutingKey;
import java.lang.invoke.MethodType;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@link TypedCache} over a {@link RoutedCache}: keys of one type made canonical, values of one
 * type.
 */
final class TypedView<K, V> implements TypedCache<K, V> {
  private final RoutedCache cache;
  private final Class<?> keyType;
  private final ValueType type;
  private final String where;

  TypedView(RoutedCache cache, Class<K> keyType, ValueType type) {
    this.cache = cache;
    // typed(long.class, ...) means Long keys: a key arrives boxed
    this.keyType =
        MethodType.methodType(Objects.requireNonNull(keyType, "keyType")).wrap().returnType();
    this.type = type;
    this.where = "a key of cache \"" + cache.name() + "\"";
  }

  @Override
  public String name() {
    return cache.name();
  }

  @Override
  public V getIfPresent(K key) {
    return value(cache.getIfPresent(key(key), type));
  }

  @Override
  public V get(K key, Function<? super K, ? extends V> loader) {
    Objects.requireNonNull(loader, "loader");
    try {
      return cache.get(key(key), type, () -> loader.apply(key), true, false);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable checked) {
      throw new UndeclaredThrowableException(checked); // a loader that threw a checked exception
    }
  }

  @Override
  public Map<K, V> getAll(Iterable<? extends K> keys) {
    Map<String, K> byRoutingKey = routingKeys(keys);
    return present(byRoutingKey, cache.getAllPresent(byRoutingKey.keySet(), type));
  }

  @Override
  public Map<K, V> getAll(
      Iterable<? extends K> keys,
      Function<? super Set<K>, ? extends Map<? extends K, ? extends V>> loader) {
    Objects.requireNonNull(loader, "loader");
    Map<String, K> byRoutingKey = routingKeys(keys);
    Map<String, Object> found = cache.getAllPresent(byRoutingKey.keySet(), type);
    Map<K, V> result = present(byRoutingKey, found);
    Set<String> missing = new LinkedHashSet<>(byRoutingKey.keySet());
    missing.removeAll(found.keySet());
    if (missing.isEmpty()) {
      return result;
    }
    Map<String, Object> loaded =
        cache.loadAll(
            missing,
            routingKeys -> {
              Set<K> wanted = new LinkedHashSet<>();
              routingKeys.forEach(k -> wanted.add(byRoutingKey.get(k)));
              Map<? extends K, ? extends V> values = loader.apply(wanted);
              Map<String, Object> byKey = new HashMap<>();
              if (values != null) {
                values.forEach(
                    (k, v) -> {
                      String routingKey = routingKey(k);
                      if (v != null && byRoutingKey.containsKey(routingKey)) {
                        byKey.put(routingKey, v);
                      }
                    });
              }
              return byKey;
            });
    for (String routingKey : missing) {
      Object value = loaded.get(routingKey);
      if (value != null) {
        @SuppressWarnings("unchecked")
        V v = (V) value;
        result.put(byRoutingKey.get(routingKey), v);
      }
    }
    return result;
  }

  @Override
  public void put(K key, V value) {
    Objects.requireNonNull(value, "value");
    cache.put(key(key), value);
  }

  @Override
  public void putAll(Map<? extends K, ? extends V> values) {
    Map<String, Object> byRoutingKey = new LinkedHashMap<>();
    values.forEach(
        (k, v) -> byRoutingKey.put(routingKey(checked(k)), Objects.requireNonNull(v, "value")));
    cache.putAll(byRoutingKey);
  }

  @Override
  public void evict(K key) {
    cache.evict(key(key));
  }

  @Override
  public void clear() {
    cache.clear();
  }

  @Override
  public CacheStats stats() {
    return cache.stats();
  }

  @Override
  public String toString() {
    return "TypedCache{name="
        + cache.name()
        + ", keys="
        + keyType.getName()
        + ", values="
        + type
        + "}";
  }

  /**
   * The caller's key, refused when it is not of the view's key type: generics are erased, so a raw
   * or unchecked call could otherwise pass a key the view's type says it never gets.
   */
  private Object checked(Object key) {
    Objects.requireNonNull(key, "key");
    if (!keyType.isInstance(key)) {
      throw new IllegalArgumentException(
          where
              + " must be a "
              + keyType.getName()
              + " (the view's key type), was a "
              + key.getClass().getName());
    }
    return key;
  }

  /** The key of one call: built once and handed through it. */
  private RoutingKey key(Object key) {
    return cache.key(checked(key), where);
  }

  private String routingKey(Object key) {
    return cache.routingKey(Objects.requireNonNull(key, "key"), where);
  }

  /** The keys by routing key, in iteration order, each once. */
  private Map<String, K> routingKeys(Iterable<? extends K> keys) {
    Map<String, K> byRoutingKey = new LinkedHashMap<>();
    for (K key : keys) {
      byRoutingKey.putIfAbsent(routingKey(checked(key)), key);
    }
    return byRoutingKey;
  }

  private Map<K, V> present(Map<String, K> byRoutingKey, Map<String, Object> found) {
    Map<K, V> result = new LinkedHashMap<>();
    byRoutingKey.forEach(
        (routingKey, key) -> {
          V value = value(found.get(routingKey));
          if (value != null) {
            result.put(key, value);
          }
        });
    return result;
  }

  @SuppressWarnings("unchecked")
  private V value(Object stored) {
    return stored == null ? null : (V) NullValue.unwrap(stored);
  }
}
