package io.github.chash.redis;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.config.KeyLayout;

/**
 * Several {@link RedisServerProcess}es with node ids {@code r1, r2, ...} ({@link LoopbackFleet}):
 * nodes of {@code type: redis}, emptied with {@code FLUSHALL}.
 *
 * <p>With {@code -Dchash.fleet.near=true}, the prefixed {@code users} cache of the tests that take
 * its settings from {@link #users} (the flapping, membership and protocol scenarios) has a near
 * cache, so that those tests check their promises with one on.
 */
public final class RedisFleet extends LoopbackFleet<RedisServerProcess> {
  private static final boolean NEAR = Boolean.getBoolean("chash.fleet.near");

  private RedisFleet(int size) {
    super(size, "r", "redis");
  }

  /** A fleet of {@code n} servers that a test class's extension starts and stops. */
  public static RedisFleet of(int n) {
    return new RedisFleet(n);
  }

  /** Starts {@code n} servers without passwords. */
  public static RedisFleet start(int n) {
    RedisFleet fleet = new RedisFleet(n);
    fleet.startServers();
    return fleet;
  }

  @Override
  protected RedisServerProcess startServer() {
    return RedisServerProcess.start();
  }

  @Override
  public String users(KeyLayout layout) {
    return NEAR && layout == KeyLayout.PREFIXED
        ? "{ ttl: 10m, near: { maximumSize: 100000, ttl: 1m } }"
        : super.users(layout);
  }

  @Override
  protected void empty(RedisServerProcess server) {
    server.command("FLUSHALL");
  }
}
