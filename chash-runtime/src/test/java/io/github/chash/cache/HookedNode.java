package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Any node, unchanged, that runs an action once before its next delete ({@link #evict}) or clear:
 * another caller's operation placed at an exact point of the manager's sequence of calls on a real
 * server (e.g. inside a probe), without threads or sleeps.
 */
public final class HookedNode implements CacheNode {
  private final CacheNode delegate;
  private volatile String hookedOp;
  private volatile Runnable hook;

  public HookedNode(CacheNode delegate) {
    this.delegate = delegate;
  }

  /**
   * {@return a factory that makes {@code nodes}' nodes, the node {@code id} wrapped in a {@link
   * HookedNode} handed to {@code made}}
   */
  public static CacheNodeFactory wrapping(
      CacheNodeFactory nodes, String id, Consumer<HookedNode> made) {
    return new CacheNodeFactory() {
      @Override
      public NodeType type() {
        return nodes.type();
      }

      @Override
      public CacheNode create(NodeConfig node, ChashConfig config) {
        CacheNode real = nodes.create(node, config);
        if (!node.id().equals(id)) {
          return real;
        }
        HookedNode hooked = new HookedNode(real);
        made.accept(hooked);
        return hooked;
      }
    };
  }

  /**
   * Runs {@code action} once, on the calling thread, before the next call of {@code op} ({@code
   * "put"}, {@code "evict"}, {@code "clear"}, or {@code "clear "} and a prefix) is sent; or, for
   * {@code "doomed "} and a routing key, once a sweep has judged that key's copy here a leftover,
   * before it is deleted.
   */
  public void onceBefore(String op, Runnable action) {
    hook = action;
    hookedOp = op;
  }

  private void before(String op) {
    Runnable action = hook;
    if (action != null && op.equals(hookedOp)) {
      hook = null;
      action.run();
    }
  }

  @Override
  public String id() {
    return delegate.id();
  }

  @Override
  public Object get(String key, ValueType type) {
    return delegate.get(key, type);
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    before(value instanceof Marker m && m.isVouch() ? "vouch" : "put");
    delegate.put(key, value, ttl);
  }

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    return delegate.getEntry(key, type);
  }

  @Override
  public long deleteKeys(Predicate<String> doomed, int keysPerSecond) {
    return delegate.deleteKeys(
        key -> {
          boolean doom = doomed.test(key);
          if (doom) {
            before("doomed " + key);
          }
          return doom;
        },
        keysPerSecond);
  }

  @Override
  public CompletableFuture<Map<String, Object>> getAll(List<String> keys, ValueType type) {
    return delegate.getAll(keys, type);
  }

  @Override
  public CompletableFuture<Map<String, ValueRefusedException>> putAll(
      Map<String, Object> values, Duration ttl) {
    return delegate.putAll(values, ttl);
  }

  @Override
  public boolean conditional() {
    return delegate.conditional();
  }

  @Override
  public CompletableFuture<Held> getHeld(String key, ValueType type) {
    return delegate.getHeld(key, type);
  }

  @Override
  public boolean putIf(String key, Held expected, Object value, Duration ttl) {
    before("putIf");
    return delegate.putIf(key, expected, value, ttl);
  }

  @Override
  public boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    return delegate.putIfLeased(key, lease, value, ttl);
  }

  @Override
  public boolean deleteIf(String key, Held expected) {
    return delegate.deleteIf(key, expected);
  }

  @Override
  public boolean deleteIfLeased(String key, Marker lease) {
    return delegate.deleteIfLeased(key, lease);
  }

  @Override
  public boolean lease(String key, Marker lease, Duration ttl) {
    return delegate.lease(key, lease, ttl);
  }

  @Override
  public void evict(String key) {
    before("evict");
    delegate.evict(key);
  }

  @Override
  public void clear() {
    before("clear");
    delegate.clear();
  }

  @Override
  public void clear(String routingKeyPrefix) {
    before("clear " + routingKeyPrefix);
    delegate.clear(routingKeyPrefix);
  }

  @Override
  public void ping() {
    delegate.ping();
  }

  @Override
  public void awaitReady() {
    delegate.awaitReady();
  }

  @Override
  public long replicaReadCount() {
    return delegate.replicaReadCount();
  }

  @Override
  public long estimatedSize() {
    return delegate.estimatedSize();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
