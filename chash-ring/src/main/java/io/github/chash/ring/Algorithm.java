package io.github.chash.ring;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The placement algorithms, by the names {@code chash.yaml} uses. */
public enum Algorithm {
  /**
   * Virtual-node ring over any hash function, {@code pointsPerWeight} points per unit of weight.
   */
  RING("ring"),
  /**
   * libketama's MD5 ring; routes as spymemcached's {@code KetamaNodeLocator}, twemproxy or
   * libketama, chosen by {@link KetamaCompat}.
   */
  KETAMA("ketama"),
  /** Maglev lookup table (Eisenbud et al., NSDI 2016), weights honoured. */
  MAGLEV("maglev"),
  /** Weighted rendezvous (highest random weight) hashing (Thaler and Ravishankar, 1998). */
  RENDEZVOUS("rendezvous"),
  /**
   * Jump consistent hash (Lamping and Veach, 2014) over the nodes in order; remove only the last.
   */
  JUMP("jump"),
  /**
   * Jedis' {@code ShardedJedis} / {@code JedisSharding} ring (MurmurHash64A, 160 points per unit of
   * weight named by list position or shard name) over the nodes in order.
   */
  JEDIS("jedis");

  private final String configName;

  Algorithm(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }

  /**
   * {@return the algorithm with the given config name}
   *
   * @param name the config name, e.g. {@code maglev}
   * @throws IllegalArgumentException naming the valid choices when there is none
   */
  public static Algorithm fromConfigName(String name) {
    for (Algorithm a : values()) {
      if (a.configName.equals(name)) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "algorithm must be one of " + choices() + "; was \"" + name + "\"");
  }

  /**
   * {@return the algorithm's rule for a node's weight: null when {@code weight} is valid, else what
   * is wrong} Every algorithm needs a positive weight ({@link Node#weightProblem}); {@code jump}
   * knows buckets, not weights, so its nodes have weight 1.
   *
   * @param weight the weight to check
   */
  public String weightProblem(long weight) {
    String positive = Node.weightProblem(weight);
    if (positive != null || this != JUMP || weight == 1) {
      return positive;
    }
    return "must be 1 for algorithm jump (jump knows buckets, not weights), was " + weight;
  }

  /**
   * {@return whether the nodes' order is part of the placement ({@code jump} numbers buckets,
   * {@code jedis} names points, by list position): reordering the nodes moves keys}
   */
  public boolean orderSensitive() {
    return this == JUMP || this == JEDIS;
  }

  /**
   * {@return the algorithm's rule for a node's name: null when nodes may have names ({@code ketama}
   * and {@code jedis} name a server's points by it, as twemproxy and Jedis do), else what is wrong}
   */
  public String nameProblem() {
    return this == KETAMA || this == JEDIS
        ? null
        : "applies only to algorithms ketama and jedis (which name a server's points by it);"
            + " remove it for "
            + configName;
  }

  /** {@return the valid config names, comma separated, in declaration order} */
  public static String choices() {
    return Arrays.stream(values()).map(Algorithm::configName).collect(Collectors.joining(", "));
  }
}
