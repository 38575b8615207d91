package io.github.chash.internal.codec;

import io.github.chash.cache.Marker;
import java.nio.ByteBuffer;

/**
 * How a remote node stores a {@link Marker}: 4 bytes no codec of this library starts a value with
 * ({@code 00 63 68 4D}, "\0chM": JDK serialization starts with {@code AC ED}, JSON with a printable
 * character), the kind ({@code L}, {@code T} or {@code V}), and the token's 8 bytes. A cache whose
 * values are raw bytes another client reads (a verbatim key layout) must not take markers.
 */
public final class MarkerBytes {
  private static final byte[] MAGIC = {0x00, 0x63, 0x68, 0x4D};
  private static final byte LEASE = 'L';
  private static final byte TOMBSTONE = 'T';
  private static final byte VOUCH = 'V';

  /** Marker bytes: the magic, the kind, the token. */
  public static final int LENGTH = MAGIC.length + 1 + Long.BYTES;

  /**
   * The bytes every lease starts with (the magic and its kind), for a server-side check: a lease is
   * stored over nothing or any other marker, whose bytes start with the same magic.
   */
  public static final byte[] LEASE_PREFIX =
      ByteBuffer.allocate(MAGIC.length + 1).put(MAGIC).put(LEASE).array();

  private MarkerBytes() {}

  /**
   * {@return the marker's bytes}
   *
   * @param marker the marker
   */
  public static byte[] encode(Marker marker) {
    return ByteBuffer.allocate(LENGTH)
        .put(MAGIC)
        .put(
            switch (marker.kind()) {
              case LEASE -> LEASE;
              case TOMBSTONE -> TOMBSTONE;
              case VOUCH -> VOUCH;
            })
        .putLong(marker.token())
        .array();
  }

  /**
   * {@return the marker these bytes hold, or null when they hold a value}
   *
   * @param bytes stored bytes
   */
  public static Marker decode(byte[] bytes) {
    if (bytes.length != LENGTH
        || bytes[0] != MAGIC[0]
        || bytes[1] != MAGIC[1]
        || bytes[2] != MAGIC[2]
        || bytes[3] != MAGIC[3]) {
      return null;
    }
    Marker.Kind kind =
        switch (bytes[4]) {
          case LEASE -> Marker.Kind.LEASE;
          case TOMBSTONE -> Marker.Kind.TOMBSTONE;
          case VOUCH -> Marker.Kind.VOUCH;
          default -> null;
        };
    return kind == null ? null : new Marker(kind, ByteBuffer.wrap(bytes, 5, 8).getLong());
  }
}
