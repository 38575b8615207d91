package io.github.chash.redis;

import io.github.chash.cache.Marker;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
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
 * process holds it, or a replica of it that the record names as an heir and that was promoted (a
 * Sentinel failover), and otherwise writes a new tag. A restarted process has a new {@code run_id},
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
   * Returns {@code "tag heirs unmapped online micros"}: the record's tag, kept while the same
   * server process holds it or when this process is a promoted heir of the record's (below), else
   * {@code ARGV[1]}, a new one; how many heirs the record names now; how many of the primary's
   * online replicas {@code ARGV[2..]} ({@code "ip:port run_id"}, the sentinels' names for them) did
   * not name; the online replicas' addresses, comma-separated; the server's {@code TIME} in µs
   * (read as {@link RedisServerTime}). {@code INFO} inside the script keeps the checks and the
   * record's update one atomic step on the server.
   *
   * <p>The record is {@code tag run_id}, and on a Sentinel-managed shard whose primary had online
   * replicas {@code tag run_id replid heir@offset@address...}: an <em>heir</em> is a replica (by
   * its {@code run_id}) that was online when the record named it at that offset of the primary's
   * replication stream ({@code replid}). A process that is not the record's keeps its tag only as a
   * promoted heir: the record names it, its {@code master_replid2} is the stream the record names
   * (it continued that stream, not a copy of it), and it had reached the heir's offset when it was
   * promoted ({@code second_repl_offset}). It then holds every write made before it was named, and
   * every later write of the tag that landed, for while the record names an heir a write lands only
   * once a replica has it ({@link Heirs}). A primary restarted from a file shows the same {@code
   * master_replid2}, but its {@code run_id} is new, so no record names it: it gets a new tag, and
   * what it restored reads as nothing (RedisSentinelIT: 200 of 200 reads stale when the tag was
   * kept on a matching {@code master_replid2} alone).
   *
   * <p>An heir stays named, even when it is no longer online: a replica cut off keeps its own copy
   * of the record, which names it, and could be promoted with it, so it must keep having every
   * landed write. So a promoted heir's record names the other heirs too (the replica offsets of a
   * stream go on across a promotion). Only an heir whose address the sentinels now give to another
   * process is dropped: the heir's process is gone.
   */
  static final String VET =
      "local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') "
          + "local repl = redis.call('INFO', 'replication') "
          + "local v = redis.call('GET', KEYS[1]) "
          + "local tag, heirs = nil, {} "
          + "if v then "
          + "  local t, vrun, rest = string.match(v, '^(%x+) (%x+)(.*)$') "
          + "  if t and vrun == run then "
          + "    tag = t "
          + "    for heir, from, at in string.gmatch(rest, '(%x+)@(%d+)@(%S+)') do "
          + "      heirs[heir] = {from, at} "
          + "    end "
          + "  elseif t and string.match(rest, '^ (%x+)') "
          + "      == string.match(repl, 'master_replid2:(%x+)') then "
          + "    local shifted = tonumber(string.match(repl, 'second_repl_offset:(%-?%d+)')) "
          + "    local others = {} "
          + "    for heir, from, at in string.gmatch(rest, '(%x+)@(%d+)@(%S+)') do "
          + "      if heir ~= run then others[heir] = {from, at} "
          + "      elseif shifted > tonumber(from) then tag = t end "
          + "    end "
          + "    if tag then heirs = others end "
          + "  end "
          + "end "
          + "if not tag then tag = ARGV[1] end "
          + "local runs = {} "
          + "for i = 2, #ARGV do "
          + "  local at, r = string.match(ARGV[i], '^(%S+) (%x+)$') "
          + "  if at then runs[at] = r end "
          + "end "
          + "local offset = string.match(repl, 'master_repl_offset:(%d+)') "
          + "local addrs, unmapped = {}, 0 "
          + "for ip, port, state in "
          + "    string.gmatch(repl, 'slave%d+:ip=([^,]+),port=(%d+),state=(%a+)') do "
          + "  if state == 'online' then "
          + "    local at = ip .. ':' .. port "
          + "    addrs[#addrs + 1] = at "
          + "    local r = runs[at] "
          + "    if not r then unmapped = unmapped + 1 "
          + "    elseif not heirs[r] then heirs[r] = {offset, at} end "
          + "  end "
          + "end "
          + "local named = {} "
          + "for r, h in pairs(heirs) do "
          + "  local now = runs[h[2]] "
          + "  if now == nil or now == r then "
          + "    named[#named + 1] = r .. '@' .. h[1] .. '@' .. h[2] "
          + "  end "
          + "end "
          + "table.sort(named) "
          + "local record = tag .. ' ' .. run "
          + "if #named > 0 then "
          + "  record = record .. ' ' .. string.match(repl, 'master_replid:(%x+)') "
          + "      .. ' ' .. table.concat(named, ' ') "
          + "end "
          + "if record ~= v then redis.call('SET', KEYS[1], record) end "
          + "table.sort(addrs) "
          + "local now = redis.call('TIME') "
          + "return tag .. ' ' .. #named .. ' ' .. unmapped .. ' ' .. table.concat(addrs, ',') "
          + "    .. ' ' .. now[1] .. string.format('%06d', tonumber(now[2]))";

  /**
   * What {@link #VET} answered.
   *
   * @param tag the tag calls run under, in the record's hex form
   * @param heirs how many heirs the record names now
   * @param unmapped online replicas the script was given no {@code run_id} for
   * @param online the online replicas' addresses, comma-separated
   * @param serverMicros the server's clock ({@code TIME}) in µs when the script ran
   */
  record VetReply(String tag, int heirs, int unmapped, String online, long serverMicros) {
    static VetReply parse(String reply) {
      String[] parts = reply.split(" ", -1);
      return new VetReply(
          parts[0],
          Integer.parseInt(parts[1]),
          Integer.parseInt(parts[2]),
          parts[3],
          Long.parseLong(parts[4]));
    }
  }

  /** The tag under which calls run, and the drops counted when it was vetted. */
  record Vetted(long drops, byte[] header) {}

  private final AtomicLong drops = new AtomicLong();
  private volatile Vetted vetted;

  /** The record of the tag: the prefix and a name no routing key has (no {@code :}). */
  static String recordKey(String keyPrefix) {
    return keyPrefix + "incarnation";
  }

  /**
   * A connection of the node dropped: the server may have restarted behind it. A sentinel's
   * connection says nothing about the server's data.
   */
  @Override
  public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
    if (connection instanceof StatefulRedisSentinelConnection<?, ?>) {
      return;
    }
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
