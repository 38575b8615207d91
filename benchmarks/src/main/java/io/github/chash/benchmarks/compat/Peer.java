package io.github.chash.benchmarks.compat;

import io.github.chash.ring.Node;
import io.github.chash.ring.PeerVectors.Case;
import io.github.chash.ring.RingSettings;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** A real client whose placement chash reproduces: its cases and where it puts their keys. */
interface Peer extends AutoCloseable {
  /** The vectors file it writes, e.g. {@code jedis-3.10.0.vectors}. */
  String file();

  /** What the file's header says: the peer, its version, how it was asked. */
  List<String> header();

  /** The cases, without placements. */
  List<Case> cases();

  /** The owner of each key of the case, as a position in {@code c.nodes()}. */
  int[] place(Case c) throws Exception;

  /**
   * The chash configurations a user had before chash reproduced this peer, by label: the closest
   * tells how many keys would have moved.
   */
  Map<String, Before> before(Case c);

  /**
   * A chash configuration: settings and nodes, the nodes in the case's order.
   *
   * @param settings the ring settings
   * @param nodes one node per case node, in the same order
   */
  record Before(RingSettings settings, List<Node> nodes) {}

  /** Stops what the peer started. */
  @Override
  default void close() throws IOException {}
}
