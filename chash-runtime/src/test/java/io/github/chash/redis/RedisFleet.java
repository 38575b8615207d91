package io.github.chash.redis;

import io.github.chash.cache.LoopbackFleet;

/**
 * Several {@link RedisServerProcess}es with node ids {@code r1, r2, ...} ({@link LoopbackFleet}):
 * nodes of {@code type: redis}, emptied with {@code FLUSHALL}.
 */
public final class RedisFleet extends LoopbackFleet<RedisServerProcess> {
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
  protected void empty(RedisServerProcess server) {
    server.command("FLUSHALL");
  }
}
