package io.github.chash.redis;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
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
    Map<String, String> fields = fields(info);
    String role = fields.get("role");
    String replId = fields.get("master_replid");
    String offsetText = fields.get("master_repl_offset");
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
    long replicas = smallestReplicaOffset(fields);
    if (replicas >= 0) {
      while (!pending.isEmpty() && pending.peekFirst().offset() <= replicas) {
        confirmed = OptionalLong.of(pending.pollFirst().atNanos());
      }
      if (pending.isEmpty() && offset <= replicas) {
        return OptionalLong.of(atNanos); // in step now: nothing left to wait for
      }
    }
    if (pending.size() == MAX_PENDING) {
      pending.pollLast(); // keeps the oldest; the newest is read again next time
    }
    pending.addLast(new Pending(atNanos, offset));
    return confirmed;
  }

  /** The {@code name:value} lines of an {@code INFO} reply, by name. */
  private static Map<String, String> fields(String info) {
    Map<String, String> fields = new HashMap<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    return fields;
  }

  /**
   * The smallest {@code offset=} of the {@code slaveN} fields ({@code
   * ip=...,port=...,state=...,offset=N,lag=...}), or -1 when there are none.
   */
  private static long smallestReplicaOffset(Map<String, String> fields) {
    long smallest = -1;
    for (Map.Entry<String, String> field : fields.entrySet()) {
      if (!field.getKey().matches("slave\\d+")) {
        continue;
      }
      for (String part : field.getValue().split(",")) {
        if (part.startsWith("offset=")) {
          long offset = Long.parseLong(part.substring("offset=".length()));
          smallest = smallest < 0 ? offset : Math.min(smallest, offset);
        }
      }
    }
    return smallest;
  }
}
