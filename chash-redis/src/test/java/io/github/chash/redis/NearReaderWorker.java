package io.github.chash.redis;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Process B of {@link RedisNearProcessesIT}: a JVM with a near cache that reads keys {@code k0 ..
 * k(n-1)} of cache {@code users} round and round, one thread, and reports on its standard output
 * every change of what it reads, as {@code C <key index> <version> <start of the last read that
 * returned the previous version> <end of the first read that returned this one>} (System.nanoTime,
 * which on Linux the test's JVM shares; version -1 is a miss). It prints {@code READY} once its
 * nodes answer, and {@code DONE <reads> <near hits> <versions that went back>} when its standard
 * input ends. Values are {@code "<version>"}.
 *
 * <p>Arguments: the {@code chash.yaml} file, the number of keys.
 */
public final class NearReaderWorker {
  private static final ValueType STRING = ValueType.of(String.class);

  private NearReaderWorker() {}

  public static void main(String[] args) throws Exception {
    Path config = Path.of(args[0]);
    int keys = Integer.parseInt(args[1]);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.load(config)))) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String[] routing = new String[keys];
      for (int k = 0; k < keys; k++) {
        routing[k] = users.routingKey("k" + k, "worker");
      }
      Thread stdin =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                  while (in.readLine() != null) {
                    // the test closes the stream to stop the reader
                  }
                } catch (java.io.IOException ended) {
                  // the same: stop
                }
              });
      stdin.setDaemon(true);
      stdin.start();
      long[] last = new long[keys];
      long[] lastStart = new long[keys];
      Arrays.fill(last, Long.MIN_VALUE);
      long reads = 0;
      long backwards = 0;
      out.println("READY");
      while (stdin.isAlive()) {
        for (int k = 0; k < keys; k++) {
          long start = System.nanoTime();
          Object got = users.getIfPresent(routing[k], STRING);
          long end = System.nanoTime();
          reads++;
          long v = got == null ? -1 : Long.parseLong((String) got);
          if (v != last[k]) {
            if (v >= 0 && v < last[k]) {
              backwards++;
            }
            out.println("C " + k + " " + v + " " + lastStart[k] + " " + end);
            last[k] = v;
          }
          lastStart[k] = start;
        }
      }
      out.println("DONE " + reads + " " + users.stats().nearHitCount() + " " + backwards);
    }
  }
}
