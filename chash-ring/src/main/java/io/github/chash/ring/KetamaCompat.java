package io.github.chash.ring;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which ketama client {@code ketama} reproduces exactly: how many MD5 digests (4 points each) a
 * server gets and which string they are computed from. The ring is the same for all: point {@code
 * 4h..4h+3} of digest {@code i} are bytes {@code 4h..4h+3} of {@code MD5(name + "-" + i)} read
 * little-endian, a key sits at the first 4 bytes of {@code MD5(key)} little-endian, and belongs to
 * the first point at or after it, wrapping.
 *
 * <p>{@code n} is the node count, {@code w} a node's weight, {@code W} the total weight; the
 * formulas are computed in {@code float} arithmetic exactly as each client computes them, since
 * they round differently near whole numbers (for 207 of the node counts 1..2000 the twemproxy
 * formula gives equal servers 39 digests, not 40).
 */
public enum KetamaCompat {
  /**
   * spymemcached 2.12.3's {@code KetamaNodeLocator} with {@code KETAMA_HASH} and no weights map,
   * the default: {@code pointsPerWeight / 4} digests (40) for every node when the weights are
   * equal; unequal weights, which spymemcached expresses only with a weights map, follow {@link
   * #SPYMEMCACHED_WEIGHTED}. Points are named by the node's name, else its id.
   */
  SPYMEMCACHED("spymemcached"),
  /**
   * spymemcached 2.12.3's {@code KetamaNodeLocator} built with a weights map (any map, even of
   * equal weights): {@code floor((float) (w / W * pointsPerWeight / 4 * n) + 1e-10)} digests for
   * every node. Points are named by the node's name, else its id.
   */
  SPYMEMCACHED_WEIGHTED("spymemcached-weighted"),
  /**
   * twemproxy (nutcracker) 0.5.0 with {@code distribution: ketama} and {@code hash: md5}: the
   * weighted formula of {@link #SPYMEMCACHED_WEIGHTED} with 160 points always, and each server
   * named as twemproxy names it: the name given after its weight in {@code servers:} ({@code
   * host:port:weight name}) when there is one, else {@code host:port}, or {@code host} alone when
   * the port is 11211. A node id {@code host:11211} therefore hashes as {@code host}.
   */
  TWEMPROXY("twemproxy"),
  /**
   * libketama (RJ/ketama, {@code ketama_roll}): {@code floorf(w / W * 40.0 * n)} digests, its own
   * mix of {@code float} and {@code double}, which gives equal servers 40; points named by the
   * node's name, else its id (the {@code host:port} of libketama's server file).
   */
  LIBKETAMA("libketama");

  /** twemproxy and libketama hash 160 points (40 digests) per server of average weight. */
  private static final int FIXED_POINTS = 160;

  private final String configName;

  KetamaCompat(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }

  /**
   * {@return whether {@code pointsPerWeight} may differ from 160 (spymemcached's node repetitions)}
   */
  public boolean hasPointsPerWeight() {
    return this == SPYMEMCACHED || this == SPYMEMCACHED_WEIGHTED;
  }

  /**
   * {@return the variant with the given config name}
   *
   * @param name the config name
   * @throws IllegalArgumentException naming the valid choices when there is none
   */
  public static KetamaCompat fromConfigName(String name) {
    for (KetamaCompat c : values()) {
      if (c.configName.equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "compat must be one of " + choices() + "; was \"" + name + "\"");
  }

  /** {@return the valid config names, comma separated, in declaration order} */
  public static String choices() {
    return Arrays.stream(values()).map(KetamaCompat::configName).collect(Collectors.joining(", "));
  }

  /** The string a node's digests are computed from: {@code name + "-" + i}. */
  String pointName(Node node) {
    if (node.name().isPresent()) {
      return node.name().get();
    }
    String id = node.id();
    if (this == TWEMPROXY && id.endsWith(":11211")) {
      // twemproxy, like libmemcached, leaves the default memcached port out of the name
      return id.substring(0, id.length() - ":11211".length());
    }
    return id;
  }

  /** Each node's number of digests (4 points each). */
  int[] digestCounts(List<Node> nodes, int pointsPerWeight) {
    int n = nodes.size();
    int[] digests = new int[n];
    boolean equal = nodes.stream().mapToInt(Node::weight).distinct().count() == 1;
    if (this == SPYMEMCACHED && equal) {
      Arrays.fill(digests, Math.max(1, pointsPerWeight / 4));
      return digests;
    }
    long totalWeight = 0; // a long: int weights near Integer.MAX_VALUE must not overflow
    for (Node node : nodes) {
      totalWeight += node.weight();
    }
    for (int i = 0; i < n; i++) {
      float percent = (float) nodes.get(i).weight() / (float) totalWeight;
      digests[i] =
          this == LIBKETAMA
              ? libketama(percent, n)
              : weighted(percent, this == TWEMPROXY ? FIXED_POINTS : pointsPerWeight, n);
    }
    return digests;
  }

  /**
   * spymemcached's {@code KetamaNodeLocator.setKetamaNodes} and twemproxy's {@code ketama_update}:
   * {@code (int) floor((float) (pct * points / 4 * n + 0.0000000001)) * 4} points, the product in
   * {@code float}, the sum in {@code double}, rounded back to {@code float}; returned as digests.
   */
  private static int weighted(float percent, int points, int n) {
    float scaled = percent * (float) points / 4 * (float) n;
    float rounded = (float) ((double) scaled + 0.0000000001);
    return (int) (Math.floor(rounded) * 4) / 4;
  }

  /**
   * libketama's {@code ketama_create_continuum}: {@code floorf(pct * 40.0 * (float) n)} digests:
   * {@code 40.0} is a {@code double}, so the product is a {@code double}, rounded to {@code float}
   * as {@code floorf} takes it.
   */
  private static int libketama(float percent, int n) {
    double product = (double) percent * 40.0 * (double) (float) n;
    return (int) Math.floor((float) product);
  }
}
