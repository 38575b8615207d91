package io.github.chash.benchmarks.ring;

import io.github.chash.ring.AddressOnlyMemcachedNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;

/**
 * Lightweight spymemcached {@link MemcachedNode}s for {@link KetamaNodeLocator} ({@link
 * AddressOnlyMemcachedNode}: no connection, no DNS lookup). The address is built from the IP
 * literal of a {@code host:port} id, so spymemcached names the node's points {@code
 * "10.0.0.1:11211-i"}, exactly like chash's ketama.
 */
final class SpyNodes {
  private SpyNodes() {}

  /** A proxy node for a {@code a.b.c.d:port} id. */
  static MemcachedNode node(String id) {
    return AddressOnlyMemcachedNode.of(address(id), id);
  }

  /** Proxy nodes for the given ids, in order. */
  static List<MemcachedNode> nodes(List<String> ids) {
    List<MemcachedNode> nodes = new ArrayList<>(ids.size());
    for (String id : ids) {
      nodes.add(node(id));
    }
    return nodes;
  }

  /** spymemcached's ketama locator with {@code KETAMA_HASH} over proxy nodes for the ids. */
  static KetamaNodeLocator locator(List<String> ids) {
    return new KetamaNodeLocator(nodes(ids), DefaultHashAlgorithm.KETAMA_HASH);
  }

  /** The id a proxy node was made for. */
  static String id(MemcachedNode node) {
    return node.toString();
  }

  private static InetSocketAddress address(String id) {
    int colon = id.lastIndexOf(':');
    String[] octets = id.substring(0, colon).split("\\.");
    if (octets.length != 4) {
      throw new IllegalArgumentException("node id must be an IPv4 host:port; was \"" + id + "\"");
    }
    byte[] ip = new byte[4];
    for (int i = 0; i < 4; i++) {
      ip[i] = (byte) Integer.parseInt(octets[i]);
    }
    try {
      return new InetSocketAddress(
          InetAddress.getByAddress(ip), Integer.parseInt(id.substring(colon + 1)));
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("bad node id \"" + id + "\"", e);
    }
  }
}
