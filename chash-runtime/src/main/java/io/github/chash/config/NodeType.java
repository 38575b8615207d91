package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a node keeps its entries: the {@code type} of a {@code nodes:} entry, an open set of names.
 * {@code local}, {@code redis} and {@code memcached} are chash's own; any other name is a node type
 * a jar on the class path provides (a {@code io.github.chash.cache.CacheNodeFactory} registered in
 * {@code META-INF/services} whose {@code type()} has that name), so a new kind of server is a jar,
 * not a change to chash. The configuration checks the settings of chash's own types where they are
 * written; a type it does not know is found, or reported missing, when the cache is built.
 *
 * @param configName the name written in {@code chash.yaml}: lowercase letters, digits and {@code
 *     -}, starting with a letter
 */
public record NodeType(String configName) {
  // first: the constants below are checked against it as they are made
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");

  /** An in-process Caffeine shard. */
  public static final NodeType LOCAL = new NodeType("local");

  /** A Redis (or Valkey) server, or a Sentinel-managed shard. */
  public static final NodeType REDIS = new NodeType("redis");

  /** A memcached server. */
  public static final NodeType MEMCACHED = new NodeType("memcached");

  /** chash's own types, whose settings the configuration checks where they are written. */
  private static final List<NodeType> OWN = List.of(LOCAL, REDIS, MEMCACHED);

  /**
   * Checks the name.
   *
   * @param configName the name written in {@code chash.yaml}
   * @throws IllegalArgumentException if the name is not lowercase letters, digits and {@code -},
   *     starting with a letter, at most 64
   * @throws NullPointerException if the name is null
   */
  public NodeType {
    Objects.requireNonNull(configName, "configName");
    Rules.require("node type", nameProblem(configName));
  }

  /**
   * {@return the type of that name: one of the constants for chash's own types, else a new one}
   *
   * @param configName the name written in {@code chash.yaml}
   * @throws IllegalArgumentException if the name is not lowercase letters, digits and {@code -},
   *     starting with a letter, at most 64
   */
  public static NodeType of(String configName) {
    for (NodeType own : OWN) {
      if (own.configName.equals(configName)) {
        return own;
      }
    }
    return new NodeType(configName);
  }

  /** {@return the names of chash's own types, in the order messages list them} */
  static List<String> ownNames() {
    return OWN.stream().map(NodeType::configName).toList();
  }

  /**
   * {@return null when {@code name} is a valid type name, else what is wrong with it}
   *
   * @param name a type name
   */
  static String nameProblem(String name) {
    return name != null && NAME.matcher(name).matches()
        ? null
        : "must be lowercase letters, digits and '-', starting with a letter (at most 64), was "
            + Quotes.quote(name);
  }

  /** {@return whether this is one of chash's own types, whose settings the configuration checks} */
  public boolean builtIn() {
    return OWN.contains(this);
  }

  @Override
  public String toString() {
    return configName;
  }
}
