package io.github.chash.memcached;

import io.github.chash.cache.LoopbackFleet;

/**
 * Several {@link MemcachedServerProcess}es with node ids {@code m1, m2, ...} ({@link
 * LoopbackFleet}): nodes of {@code type: memcached}, emptied with {@code flush_all}.
 */
public final class MemcachedFleet extends LoopbackFleet<MemcachedServerProcess> {
  /** spymemcached's item format: a verbatim cache on memcached stores what the peers read. */
  @Override
  public String verbatimCodec() {
    return "spymemcached";
  }

  private MemcachedFleet(int size) {
    super(size, "m", "memcached");
  }

  /** A fleet of {@code n} servers that a test class's extension starts and stops. */
  public static MemcachedFleet of(int n) {
    return new MemcachedFleet(n);
  }

  @Override
  protected MemcachedServerProcess startServer() {
    return MemcachedServerProcess.start();
  }

  @Override
  protected void empty(MemcachedServerProcess server) {
    server.flushAll();
  }
}
