package io.github.chash.redis;

import io.github.chash.cache.Marker;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which incarnation of its server's data a Redis node reads and writes, so that a server that
 * restarted is recognised before it serves again, whatever it restored.
 *
 * <p>A server restarts empty, or from an RDB or AOF file or a VM snapshot older than the writes it
 * acknowledged: what it restored may be older than the last write of a key. Every entry the node
 * stores under its prefix therefore carries the tag of the incarnation it was written in, and an
 * entry of another incarnation reads as nothing, as if the server had evicted it. The tag lives on
 * the server, in one record beside the entries ({@link #recordKey}, never a routing key: those
 * always hold a {@code :} after the cache name), with the {@code run_id} of the server process that
 * holds it; a script run on a (re)connect ({@link #VET}) keeps the record's tag while the same
 * process holds it, and otherwise writes a new tag. A restarted process has a new {@code run_id},
 * and a record it restored from a file names the old process, so every JVM, including one started
 * after the restart, agrees on the new tag; a record the server evicted costs one new tag, that is
 * a miss of every entry, never an older value.
 *
 * <p>The tag is vetted again after any of the node's connections dropped: a restart breaks them
 * all. A call runs under the tag it vetted and checks when its reply came that no connection
 * dropped meanwhile ({@link #unchangedSince}), so no reply of a server restarted under it is taken
 * for one of the incarnation it vetted.
 *
 * <p>Each stored entry is {@link #MAGIC}, the tag (8 bytes), a version (8 bytes: random for a
 * value, a marker's token for a marker) and the value's or marker's own bytes. The version makes
 * two writes of equal bytes different stored bytes, so the conditional scripts, which compare
 * bytes, never take a second write of the same value for the first (an ABA). A verbatim cache's
 * values are stored as they are, for the peer clients that read them, and carry none of this.
 * Thread-safe.
 */
final class ServerIncarnation implements RedisConnectionStateListener {
  /** What an enveloped entry starts with: no codec of this library starts a value so. */
  static final byte[] MAGIC = {0x00, 'c', 'h', 'R'};

  /** The magic and the tag: what every entry of one incarnation starts with. */
  static final int TAG_END = MAGIC.length + Long.BYTES;

  /** The whole header: the magic, the tag, the version. */
  static final int HEADER = TAG_END + Long.BYTES;

  /**
   * Returns the record's tag, keeping it while the same server process holds it, else records
   * {@code ARGV[1]} as the new tag. The record is {@code tag run_id}. {@code INFO} inside the
   * script keeps the check and the record's update one atomic step on the server.
   *
   * <p>A promoted replica is a new incarnation too. Its {@code master_replid2} names the history it
   * continued, but a primary restarted from an RDB file taken while it had replicas restores the
   * same {@code master_replid2} (Redis keeps it so that its replicas can resynchronise partially),
   * and with it data older than what it acknowledged: the server alone cannot tell the two apart
   * (RedisSentinelIT: 200 of 200 reads stale when the tag was kept on a matching {@code
   * master_replid2}). A promotion therefore costs the shard's entries, a miss each.
   */
  static final String VET =
      "local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') "
          + "local v = redis.call('GET', KEYS[1]) "
          + "if v then "
          + "  local tag, vrun = string.match(v, '^(%x+) (%x+)$') "
          + "  if tag and vrun == run then return tag end "
          + "end "
          + "redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. run) "
          + "return ARGV[1]";

  /** The tag under which calls run, and the drops counted when it was vetted. */
  record Vetted(long drops, byte[] header) {}

  private final AtomicLong drops = new AtomicLong();
  private volatile Vetted vetted;

  /** The record of the tag: the prefix and a name no routing key has (no {@code :}). */
  static String recordKey(String keyPrefix) {
    return keyPrefix + "incarnation";
  }

  /** A connection of the node dropped: the server may have restarted behind it. */
  @Override
  public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
    drops.incrementAndGet();
  }

  /** {@return the tag vetted since the last drop, or null when it must be vetted (again)} */
  Vetted current() {
    Vetted v = vetted;
    return v != null && v.drops == drops.get() ? v : null;
  }

  /** {@return the drops counted now: taken before the vetting script is sent} */
  long drops() {
    return drops.get();
  }

  /** {@return a new random tag, in the record's hex form} */
  static String newTag() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  /**
   * Takes the tag the vetting script returned, unless a connection dropped since it was sent.
   *
   * @param dropsAtSend {@link #drops()} when the script was sent
   * @param tag the script's reply
   * @return the vetted tag, or null when a drop came meanwhile (vet again)
   */
  Vetted vetted(long dropsAtSend, String tag) {
    Vetted v = new Vetted(dropsAtSend, header(tag));
    if (drops.get() != dropsAtSend) {
      return null;
    }
    vetted = v;
    return v;
  }

  /** {@return what every entry under a tag (in the record's hex form) starts with} */
  static byte[] header(String tag) {
    return ByteBuffer.allocate(TAG_END).put(MAGIC).putLong(Long.parseUnsignedLong(tag, 16)).array();
  }

  /** {@return whether no connection dropped since the call's tag was vetted} */
  boolean unchangedSince(Vetted v) {
    return drops.get() == v.drops;
  }

  /**
   * {@return the stored bytes of a value's or marker's own bytes under a tag}
   *
   * @param header the tag's {@link #header}
   * @param inner the codec's or the marker's bytes
   * @param value what they encode: a marker's token is its version, a value gets a random one
   */
  static byte[] wrap(byte[] header, byte[] inner, Object value) {
    long version = value instanceof Marker m ? m.token() : ThreadLocalRandom.current().nextLong();
    return ByteBuffer.allocate(HEADER + inner.length)
        .put(header)
        .putLong(version)
        .put(inner)
        .array();
  }

  /**
   * {@return the value's or marker's own bytes of an entry of the tag's incarnation, or null for an
   * entry of another incarnation (or none), which reads as nothing}
   *
   * @param header the tag's {@link #header}
   * @param stored the stored bytes, or null
   */
  static byte[] unwrap(byte[] header, byte[] stored) {
    if (stored == null
        || stored.length < HEADER
        || !Arrays.equals(stored, 0, TAG_END, header, 0, TAG_END)) {
      return null;
    }
    return Arrays.copyOfRange(stored, HEADER, stored.length);
  }
}
