package io.github.chash.cache;

import java.util.Locale;
import java.util.Objects;

/**
 * A node as metrics and spans name it: its id in the ring, the kind of server ({@code redis},
 * {@code memcached}, as OpenTelemetry's {@code db.system.name} has it; {@code chash.local} for a
 * local shard), and its address ({@code host:port}, or null when it has none, as a local shard).
 *
 * @param id the node's id
 * @param system the kind of server
 * @param address the server's address without credentials, or null
 */
public record NodeInfo(String id, String system, String address) {
  /**
   * Checks the id and system.
   *
   * @param id the node's id
   * @param system the kind of server
   * @param address the server's address without credentials, or null
   */
  public NodeInfo {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(system, "system");
  }

  /** {@return the node's description, from what it says of itself} */
  static NodeInfo of(CacheNode node) {
    if (node instanceof LocalCacheNode) {
      return new NodeInfo(node.id(), "chash.local", null);
    }
    String kind = node.getClass().getSimpleName().toLowerCase(Locale.ROOT);
    String system =
        kind.contains("redis") ? "redis" : kind.contains("memcached") ? "memcached" : kind;
    return new NodeInfo(node.id(), system, node.address());
  }

  /** {@return the host of {@link #address()}, or null} */
  public String host() {
    if (address == null) {
      return null;
    }
    int colon = address.lastIndexOf(':');
    return colon > 0 && address.indexOf(':') == colon ? address.substring(0, colon) : address;
  }

  /** {@return the port of {@link #address()}, or -1 when it names none} */
  public int port() {
    if (address == null) {
      return -1;
    }
    int colon = address.lastIndexOf(':');
    if (colon < 0 || address.indexOf(':') != colon) {
      return -1;
    }
    try {
      return Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
