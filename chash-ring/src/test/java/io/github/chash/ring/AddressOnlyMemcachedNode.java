package io.github.chash.ring;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;

/**
 * spymemcached {@link MemcachedNode}s that know only their address: all a {@link KetamaNodeLocator}
 * asks of a node. No connection, no DNS lookup. Shared by the ketama compatibility tests and the
 * benchmarks (through this module's test-jar).
 */
public final class AddressOnlyMemcachedNode {
  private AddressOnlyMemcachedNode() {}

  /**
   * A dynamic proxy answering {@code getSocketAddress()}, identity {@code equals}/{@code hashCode}
   * and {@code toString()} (the given name); every other method throws.
   */
  public static MemcachedNode of(InetSocketAddress address, String name) {
    return (MemcachedNode)
        Proxy.newProxyInstance(
            MemcachedNode.class.getClassLoader(),
            new Class<?>[] {MemcachedNode.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "getSocketAddress":
                  return address;
                case "hashCode":
                  return System.identityHashCode(proxy);
                case "equals":
                  return proxy == args[0];
                case "toString":
                  return name;
                default:
                  throw new UnsupportedOperationException(method.getName());
              }
            });
  }
}
