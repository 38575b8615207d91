package io.github.chash.cache;

import com.dynatrace.hash4j.hashing.Hashing;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a node may hold under a key in place of a value, for the rules between the JVMs of a fleet
 * (see the package comment): a <em>lease</em>, taken on a miss before a load, that the load's fill
 * replaces only if nothing else was written meanwhile (the leases of Scaling Memcache at Facebook,
 * NSDI 2013); a <em>tombstone</em>, written by an evict at the key's owner, that tells a JVM on a
 * newer ring that the copy it made of the key is older than this delete; or a <em>vouch</em>, left
 * on a key's previous owner by a JVM on a newer ring once the key's target holds its newest entry
 * (a move, a put, a fill), that tells the JVMs on that newer ring the target's copy may be served.
 * A previous owner holding nothing proves nothing: a server may have evicted or lost a newer write
 * there. All three read as a miss. Each has a random token, so a conditional call replaces or
 * deletes exactly the one it saw.
 *
 * @param kind a lease, a tombstone or a vouch
 * @param token random, so that markers of two JVMs never compare equal
 */
public record Marker(Kind kind, long token) {
  /** The kinds of marker. */
  public enum Kind {
    /** A load of the key is under way; its fill replaces this lease and nothing else. */
    LEASE,
    /** The key was deleted at its owner. */
    TOMBSTONE,
    /** The key's newest entry is on its target in a newer ring (this node is a previous owner). */
    VOUCH
  }

  /** {@return a new lease} */
  public static Marker lease() {
    return new Marker(Kind.LEASE, ThreadLocalRandom.current().nextLong());
  }

  /** {@return a new tombstone} */
  public static Marker tombstone() {
    return new Marker(Kind.TOMBSTONE, ThreadLocalRandom.current().nextLong());
  }

  /**
   * {@return a new vouch for the copy on {@code target}}: its token's low 32 bits name the target,
   * so that a JVM whose ring places the key elsewhere (a change it skipped, overlapping changes)
   * does not take it for a vouch of its own target's copy; the high 32 bits are random.
   *
   * @param target the id of the node whose copy this vouches for
   */
  public static Marker vouch(String target) {
    long random = ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFF_0000_0000L;
    return new Marker(Kind.VOUCH, random | targetBits(target));
  }

  /** {@return whether this is a lease} */
  public boolean isLease() {
    return kind == Kind.LEASE;
  }

  /** {@return whether this is a vouch} */
  public boolean isVouch() {
    return kind == Kind.VOUCH;
  }

  /**
   * {@return whether this is a vouch for the copy on {@code target}}
   *
   * @param target a node id
   */
  public boolean vouchesFor(String target) {
    return kind == Kind.VOUCH
        && (Planted.on(Planted.VOUCH_ANY_TARGET) || (token & 0xFFFF_FFFFL) == targetBits(target));
  }

  private static long targetBits(String target) {
    return Hashing.komihash5_0().hashCharsToLong(target) & 0xFFFF_FFFFL;
  }

  /** The kind only: traces stay the same from run to run. */
  @Override
  public String toString() {
    return kind.name().toLowerCase(java.util.Locale.ROOT);
  }
}
