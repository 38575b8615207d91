package io.github.chash.cache;

import java.util.HashSet;
import java.util.Set;

/** Values an attacker who can write to a cache server plants, shared by the nodes' fault tests. */
public final class HostileValues {
  private HostileValues() {}

  /**
   * Two hash sets a level, each holding both of the next level's (SerialDoS): only {@code
   * java.util} and {@code String}, allowed by default, yet hashing one on reading visits 2^depth
   * sets.
   */
  public static Set<Object> hashSetBomb(int depth) {
    Set<Object> root = new HashSet<>();
    Set<Object> s1 = root;
    Set<Object> s2 = new HashSet<>();
    for (int i = 0; i < depth; i++) {
      Set<Object> t1 = new HashSet<>();
      Set<Object> t2 = new HashSet<>();
      t1.add("foo"); // t1 and t2 differ, so both stay in every set
      s1.add(t1);
      s1.add(t2);
      s2.add(t1);
      s2.add(t2);
      s1 = t1;
      s2 = t2;
    }
    return root;
  }
}
