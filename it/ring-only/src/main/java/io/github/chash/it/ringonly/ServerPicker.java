package io.github.chash.it.ringonly;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.List;

/** Picks the memcached server of a key as spymemcached's ketama does: the ring's first use. */
public final class ServerPicker {
  private final Ring ring;

  /**
   * A picker over the servers.
   *
   * @param servers the servers' {@code host:port}
   */
  public ServerPicker(List<String> servers) {
    this.ring =
        Rings.create(RingSettings.of(Algorithm.KETAMA), servers.stream().map(Node::of).toList());
  }

  /**
   * {@return the server that holds the key}
   *
   * @param key the key
   */
  public String serverOf(String key) {
    return ring.locate(key).id();
  }
}
