package io.github.chash.benchmarks.compat;

import io.github.chash.ring.AddressOnlyMemcachedNode;
import io.github.chash.ring.PeerVectors;
import io.github.chash.ring.PeerVectors.Case;
import io.github.chash.ring.PeerVectors.VectorNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;

/**
 * spymemcached 2.12.3's {@code KetamaNodeLocator} with {@code KETAMA_HASH}, without and with a
 * weights map, over address-only nodes (no connection): IP-literal addresses, whose node key is
 * {@code ip:port}, and host-named ones, whose key is {@code host/ip:port} (a chash name).
 */
final class SpymemcachedPeer implements Peer {
  @Override
  public String file() {
    return "spymemcached-2.12.3.vectors";
  }

  @Override
  public List<String> header() {
    return List.of(
        "spymemcached 2.12.3 (net.spy:spymemcached), KetamaNodeLocator with"
            + " DefaultHashAlgorithm.KETAMA_HASH, KetamaNodeKeyFormatter.Format.SPYMEMCACHED;",
        "weightsMap cases pass a weights map (KetamaNodeLocator(nodes, alg, format, weights)),"
            + " the others none.",
        "A node's id is its address' node key; a named node's address has a host name, its id the"
            + " host, its name the node key.");
  }

  @Override
  public List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (int n : Cases.COUNTS) {
      cases.add(
          Case.of(
              "nomap-equal-" + n,
              "algorithm=ketama compat=spymemcached",
              false,
              nodes(n, false, true)));
    }
    cases.add(
        Case.of(
            "nomap-named-equal-8",
            "algorithm=ketama compat=spymemcached",
            false,
            nodes(8, true, true)));
    for (int n : new int[] {3, 8, 25, 47, 50}) {
      cases.add(
          Case.of(
              "weightsmap-equal-" + n,
              "algorithm=ketama compat=spymemcached-weighted",
              false,
              nodes(n, false, true)));
    }
    for (int n : Cases.COUNTS) {
      cases.add(
          Case.of(
              "weightsmap-unequal-" + n,
              "algorithm=ketama compat=spymemcached-weighted",
              false,
              nodes(n, false, false)));
    }
    cases.add(
        Case.of(
            "weightsmap-named-unequal-8",
            "algorithm=ketama compat=spymemcached-weighted",
            false,
            nodes(8, true, false)));
    return cases;
  }

  private static List<VectorNode> nodes(int n, boolean named, boolean equal) {
    List<VectorNode> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      InetSocketAddress a = address(i, named);
      int weight = equal ? 1 : Cases.unequalWeight(i, n);
      String key = nodeKey(a);
      nodes.add(named ? new VectorNode(host(i), weight, key) : new VectorNode(key, weight, null));
    }
    return nodes;
  }

  private static String host(int i) {
    return "cache-" + i + ".example";
  }

  private static InetSocketAddress address(int i, boolean named) {
    byte[] ip = {10, 0, (byte) (i / 250), (byte) (1 + i % 250)};
    try {
      InetAddress address =
          named ? InetAddress.getByAddress(host(i), ip) : InetAddress.getByAddress(ip);
      return new InetSocketAddress(address, 11211 + i % 3);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** spymemcached's default node key: the address' toString() without a leading "/". */
  private static String nodeKey(InetSocketAddress a) {
    String s = String.valueOf(a);
    return s.startsWith("/") ? s.substring(1) : s;
  }

  @Override
  public int[] place(Case c) {
    boolean named = c.nodes().get(0).name() != null;
    List<MemcachedNode> spyNodes = new ArrayList<>();
    Map<MemcachedNode, Integer> positions = new IdentityHashMap<>();
    Map<InetSocketAddress, Integer> weights = new HashMap<>();
    for (int i = 0; i < c.nodes().size(); i++) {
      InetSocketAddress a = address(i, named);
      MemcachedNode node = AddressOnlyMemcachedNode.of(a, "MemcachedNode(" + a + ")");
      spyNodes.add(node);
      positions.put(node, i);
      weights.put(a, c.nodes().get(i).weight());
    }
    KetamaNodeLocator locator =
        c.name().startsWith("weightsmap")
            ? new KetamaNodeLocator(
                spyNodes,
                DefaultHashAlgorithm.KETAMA_HASH,
                KetamaNodeKeyFormatter.Format.SPYMEMCACHED,
                weights)
            : new KetamaNodeLocator(spyNodes, DefaultHashAlgorithm.KETAMA_HASH);
    int[] owners = new int[c.keys()];
    for (int i = 0; i < owners.length; i++) {
      owners[i] = positions.get(locator.getPrimary(PeerVectors.key(i, c.tagged())));
    }
    return owners;
  }

  @Override
  public Map<String, Before> before(Case c) {
    return Cases.ketamaBefore(c);
  }
}
