package io.github.chash.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The heirs of a Sentinel-managed shard's incarnation ({@link ServerIncarnation#VET}): the replicas
 * whose promotion keeps the shard's entries, and so what a write there needs to count as landed.
 *
 * <p><b>The rule:</b> a write lands once a replica acknowledged it ({@code WAIT 1}), or once the
 * incarnation's record, read after it on the same connection, names no heir. Why no landed write is
 * lost to a stale read:
 *
 * <ul>
 *   <li>A promoted replica keeps the tag only as an heir the record names from an offset of the
 *       primary's stream on, and only if it had reached that offset. Every write made before the
 *       record named it is within that offset, so the heir has it.
 *   <li>Every write made after the record named an heir read the record naming one, so it landed
 *       only once a replica had it; Sentinel promotes the replica with the most data, which is that
 *       one or one further ahead.
 *   <li>A write that read a record naming no heir is on the primary alone. If the primary dies, any
 *       replica promoted is no heir: the shard gets a new tag and what it holds reads as nothing.
 *       If the primary restarts, its new {@code run_id} gets a new tag too.
 * </ul>
 *
 * <p>So a shard whose only replica was promoted takes writes at once on the primary it has, with no
 * replica to wait for; the replicas the primary gets later become heirs at the next vetting, which
 * the node runs every {@link #REFRESH_MILLIS} as well as on a (re)connect. An heir that dies or is
 * cut off stays named (its own copy of the record names it), so writes wait for a replica again
 * until it is back, or replaced at its address.
 *
 * <p>The record names heirs by {@code run_id}, which the primary does not know: the script is given
 * the sentinels' {@code runid} for each replica address ({@link #learn}). A name the sentinels have
 * not updated yet belongs to a process that no longer serves, so the replica that took its place is
 * no heir: the error is on the side of a miss. Thread-safe.
 */
final class Heirs {
  /** How often a Sentinel shard's node vets the record again, to name new replicas as heirs. */
  static final long REFRESH_MILLIS = 1000;

  /**
   * Whether the last record seen named an heir: writes then send {@code WAIT 1} along, rather than
   * after reading the record. Before the first vetting a write expects heirs.
   */
  private volatile boolean expected = true;

  /** {@code "ip:port run_id"} of each replica the sentinels named last. */
  private volatile List<String> replicaRuns = List.of();

  /**
   * The sentinels are asked again at least this many vettings apart: a replica restarted at the
   * same address between two vettings shows no change, and its new {@code run_id} reaches the
   * sentinels' answer only once they read it from the replica.
   */
  static final int LEARN_EVERY = 10;

  private String lastOnline = ""; // guarded by this

  private int vettingsSinceLearned; // guarded by this

  /**
   * {@return whether a record (null: none) names an heir: each is written {@code
   * run_id@offset@address}}
   */
  static boolean named(byte[] record) {
    if (record == null) {
      return false;
    }
    for (byte b : record) {
      if (b == '@') {
        return true;
      }
    }
    return false;
  }

  /** {@return whether writes should send {@code WAIT 1} along: the last record named an heir} */
  boolean expected() {
    return expected;
  }

  /** Notes whether the record, as a write or the vetting last read it, names an heir. */
  void saw(boolean named) {
    expected = named;
  }

  /**
   * Notes a vetting's reply.
   *
   * @return whether to ask the sentinels for the replicas' {@code run_id}s again: an online replica
   *     had none, the online replicas changed, or {@link #LEARN_EVERY} vettings passed
   */
  synchronized boolean vetted(ServerIncarnation.VetReply reply) {
    saw(reply.heirs() > 0);
    boolean learn =
        reply.unmapped() > 0
            || !reply.online().equals(lastOnline)
            || ++vettingsSinceLearned >= LEARN_EVERY;
    lastOnline = reply.online();
    if (learn) {
      vettingsSinceLearned = 0;
    }
    return learn;
  }

  /**
   * Takes the replicas as {@code SENTINEL REPLICAS} lists them.
   *
   * @param replicas each replica's fields: {@code ip}, {@code port}, {@code runid}
   */
  void learn(List<Map<String, String>> replicas) {
    List<String> runs = new ArrayList<>();
    for (Map<String, String> replica : replicas) {
      String run = replica.get("runid");
      if (run != null && !run.isEmpty() && replica.get("ip") != null) {
        runs.add(replica.get("ip") + ":" + replica.get("port") + " " + run);
      }
    }
    replicaRuns = List.copyOf(runs);
  }

  /** {@return the vetting script's arguments: a new tag, then the replicas' {@code run_id}s} */
  byte[][] vetArgs(String newTag) {
    List<String> runs = replicaRuns;
    byte[][] args = new byte[1 + runs.size()][];
    args[0] = newTag.getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < runs.size(); i++) {
      args[i + 1] = runs.get(i).getBytes(StandardCharsets.US_ASCII);
    }
    return args;
  }
}
