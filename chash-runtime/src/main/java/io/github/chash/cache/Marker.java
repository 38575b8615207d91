package io.github.chash.cache;

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

  /** {@return a new vouch} */
  public static Marker vouch() {
    return new Marker(Kind.VOUCH, ThreadLocalRandom.current().nextLong());
  }

  /** {@return whether this is a lease} */
  public boolean isLease() {
    return kind == Kind.LEASE;
  }

  /** {@return whether this is a vouch} */
  public boolean isVouch() {
    return kind == Kind.VOUCH;
  }

  /** The kind only: traces stay the same from run to run. */
  @Override
  public String toString() {
    return kind.name().toLowerCase(java.util.Locale.ROOT);
  }
}
