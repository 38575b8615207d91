package io.github.chash.memcached;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a memcached node stores under a key: a header (magic byte, version), the generations the
 * entry was written under (the node-wide one and its namespace's, see {@link MemcachedCacheNode}),
 * its deadline in epoch milliseconds of the server's clock (0: none; see {@link ServerClock}), the
 * full routing key (so a hashed key never serves another key's value) and the codec's bytes. A
 * generation counter is stored as its own magic byte and 8 bytes. Immutable.
 *
 * @param globalGeneration the node-wide generation at write time
 * @param namespaceGeneration the namespace's generation at write time
 * @param deadlineMillis when the entry expires, epoch milliseconds of the server's clock; 0 for
 *     never
 * @param key the routing key's bytes
 * @param payload the codec's bytes
 */
record Envelope(
    long globalGeneration,
    long namespaceGeneration,
    long deadlineMillis,
    byte[] key,
    byte[] payload) {
  private static final byte DATA = (byte) 0xC7;
  private static final byte GENERATION = (byte) 0xC6;
  private static final byte VERSION = 1;

  /** Bytes before the key: magic, version, two generations, deadline, key length. */
  static final int HEADER = 2 + 8 + 8 + 8 + 4;

  /** The stored bytes. */
  byte[] encode() {
    ByteBuffer out = ByteBuffer.allocate(HEADER + key.length + payload.length);
    out.put(DATA).put(VERSION);
    out.putLong(globalGeneration).putLong(namespaceGeneration).putLong(deadlineMillis);
    out.putInt(key.length).put(key).put(payload);
    return out.array();
  }

  /** The length of the payload of stored bytes, or -1 if they are no envelope. */
  static int payloadLength(byte[] stored) {
    if (stored.length < HEADER || stored[0] != DATA || stored[1] != VERSION) {
      return -1;
    }
    int keyLength = ByteBuffer.wrap(stored, HEADER - 4, 4).getInt();
    if (keyLength < 0 || keyLength > stored.length - HEADER) {
      return -1;
    }
    return stored.length - HEADER - keyLength;
  }

  /** Reads stored bytes, or null if they are no envelope of this version. */
  static Envelope decode(byte[] stored) {
    int payloadLength = payloadLength(stored);
    if (payloadLength < 0) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(stored, 2, stored.length - 2);
    long global = in.getLong();
    long namespace = in.getLong();
    long deadline = in.getLong();
    byte[] key = new byte[in.getInt()];
    in.get(key);
    byte[] payload = new byte[payloadLength];
    in.get(payload);
    return new Envelope(global, namespace, deadline, key, payload);
  }

  /** Whether this entry is of the given routing key (its full bytes). */
  boolean isOf(byte[] routingKey) {
    return Arrays.equals(key, routingKey);
  }

  /** A generation counter's stored bytes. */
  static byte[] generation(long value) {
    return ByteBuffer.allocate(9).put(GENERATION).putLong(value).array();
  }

  /** A generation counter's value, or 0 (no valid generation) for anything else. */
  static long generationOf(byte[] stored) {
    if (stored == null || stored.length != 9 || stored[0] != GENERATION) {
      return 0;
    }
    return ByteBuffer.wrap(stored, 1, 8).getLong();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Envelope e
        && globalGeneration == e.globalGeneration
        && namespaceGeneration == e.namespaceGeneration
        && deadlineMillis == e.deadlineMillis
        && Arrays.equals(key, e.key)
        && Arrays.equals(payload, e.payload);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(key) * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "Envelope[" + key.length + " key bytes, " + payload.length + " payload bytes]";
  }
}
