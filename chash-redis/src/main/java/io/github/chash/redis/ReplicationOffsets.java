package io.github.chash.redis;

import java.util.ArrayDeque;
import java.util.OptionalLong;

/**
 * Tells, from the primary's {@code INFO replication} read now and then, before which time every
 * write this JVM finished is on every replica ({@link RecentWrites#confirmedBefore}).
 *
 * <p>Why it holds: a reading is stamped with the time just before {@code INFO} was sent, so every
 * write that finished before that stamp is within the primary's {@code master_repl_offset} it
 * reports. Once a later reading shows the smallest offset the replicas acknowledged at or past that
 * offset, every replica has those writes. The replicas' offsets are what they acknowledged to the
 * primary, never ahead of what they applied, so the rule errs on the side of the primary. Readings
 * are compared only within one replication stream ({@code master_replid}): after a promotion the
 * new primary's offsets start over the comparison. A reading from a server that is not a primary,
 * or that lists no replica, confirms nothing, so reads stay on the primary: a replica the primary
 * does not list (cut off from it) may be one a read reaches.
 *
 * <p>Not thread-safe: one poller at a time (the node's).
 */
final class ReplicationOffsets {
  /** A reading still waiting for the replicas to reach its offset. */
  private record Pending(long atNanos, long offset) {}

  /** At most this many readings wait: a replica stuck for long holds the oldest ones. */
  private static final int MAX_PENDING = 64;

  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private String stream;

  /**
   * Folds in one reading of {@code INFO replication}.
   *
   * @param atNanos the clock time just before it was sent
   * @param info the reply's text
   * @return the latest time before which every write is on every replica, if this reading confirms
   *     one
   */
  OptionalLong read(long atNanos, String info) {
    String role = field(info, "role");
    String replId = field(info, "master_replid");
    String offsetText = field(info, "master_repl_offset");
    if (!"master".equals(role) || replId == null || offsetText == null) {
      pending.clear();
      stream = null;
      return OptionalLong.empty();
    }
    if (!replId.equals(stream)) {
      pending.clear(); // another primary's stream: its offsets do not compare with the old one's
      stream = replId;
    }
    long offset = Long.parseLong(offsetText);
    OptionalLong confirmed = OptionalLong.empty();
    long replicas = smallestReplicaOffset(info);
    if (replicas >= 0) {
      while (!pending.isEmpty() && pending.peekFirst().offset() <= replicas) {
        confirmed = OptionalLong.of(pending.pollFirst().atNanos());
      }
      if (pending.isEmpty() && offset <= replicas) {
        confirmed = OptionalLong.of(atNanos);
        return confirmed;
      }
    }
    if (pending.size() == MAX_PENDING) {
      pending.pollLast(); // keeps the oldest; the newest is read again next time
    }
    pending.addLast(new Pending(atNanos, offset));
    return confirmed;
  }

  /** The smallest {@code offset=} of the {@code slaveN:} lines, or -1 when there are none. */
  static long smallestReplicaOffset(String info) {
    long smallest = -1;
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("slave") && line.indexOf(':') > 0 && line.contains("offset=")) {
        long offset = -1;
        for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
          if (part.startsWith("offset=")) {
            offset = Long.parseLong(part.substring("offset=".length()).strip());
          }
        }
        if (offset < 0) {
          continue;
        }
        smallest = smallest < 0 ? offset : Math.min(smallest, offset);
      }
    }
    return smallest;
  }

  private static String field(String info, String name) {
    String prefix = name + ":";
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(prefix)) {
        return line.substring(prefix.length()).strip();
      }
    }
    return null;
  }
}
