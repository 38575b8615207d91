package io.github.chash.cache;

import java.util.Locale;

/** What a cache's call on a node does, as {@link CacheRecorder} reports it. */
public enum NodeOperation {
  /** Reads one key (with its time left, or what it holds, markers included). */
  GET,
  /** Reads many keys in one request. */
  GET_ALL,
  /** Stores one key's value. */
  PUT,
  /**
   * Deletes one key, or writes a tombstone in its place (an evict between JVMs, a fence on a
   * previous owner).
   */
  EVICT,
  /**
   * A conditional write of the protocol between JVMs: a lease, a fill over a lease, a tombstone, a
   * move of a value from a previous owner.
   */
  WRITE_IF,
  /** Stores or deletes many keys in one request. */
  WRITE_ALL;

  private final String tag = name().toLowerCase(Locale.ROOT);

  /** {@return the lower-case name metrics and spans use: {@code get}, {@code put}, ...} */
  public String tag() {
    return tag;
  }
}
