package io.github.chash.cache;

import java.util.concurrent.ThreadLocalRandom;

/**
 * What a node may hold under a key in place of a value, for the rules between the JVMs of a fleet
 * (see the package comment): a <em>lease</em>, taken on a miss before a load, that the load's fill
 * replaces only if nothing else was written meanwhile (the leases of Scaling Memcache at Facebook,
 * NSDI 2013); or a <em>tombstone</em>, written by an evict at the key's owner, that tells a JVM on
 * a newer ring that the copy it made of the key is older than this delete. Both read as a miss.
 * Each has a random token, so a conditional call replaces or deletes exactly the one it saw.
 *
 * @param kind a lease or a tombstone
 * @param token random, so that markers of two JVMs never compare equal
 */
public record Marker(Kind kind, long token) {
  /** The kinds of marker. */
  public enum Kind {
    /** A load of the key is under way; its fill replaces this lease and nothing else. */
    LEASE,
    /** The key was deleted at its owner. */
    TOMBSTONE
  }

  /** {@return a new lease} */
  public static Marker lease() {
    return new Marker(Kind.LEASE, ThreadLocalRandom.current().nextLong());
  }

  /** {@return a new tombstone} */
  public static Marker tombstone() {
    return new Marker(Kind.TOMBSTONE, ThreadLocalRandom.current().nextLong());
  }

  /** {@return whether this is a lease} */
  public boolean isLease() {
    return kind == Kind.LEASE;
  }

  /** The kind only: traces stay the same from run to run. */
  @Override
  public String toString() {
    return kind == Kind.LEASE ? "lease" : "tombstone";
  }
}
