package io.github.chash.cache;

import io.github.chash.config.ChashConfigs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One JVM of a {@link FleetProcessesScenario}: a manager built from its own {@code chash.yaml},
 * which it watches (the test changes each process's file at its own moment), and 8 threads of puts,
 * evicts and reads through a loader. Every write's begin and completion go to a recorder Redis that
 * only the test uses (a version and a tick per write, the floor per key), so the test can check
 * every read of every process; reads, ring changes and counts go to an output file.
 *
 * <p>Arguments: config file, recorder URI, keys, most seconds to run, output file; it writes {@code
 * output.ready} once it runs, and stops when {@code output.stop} exists.
 */
public final class FleetWorker {
  static final String BEGIN =
      "local v = redis.call('HINCRBY', 'v', KEYS[1], 1) local t = redis.call('INCR', 'tick') "
          + "redis.call('HSET', 'b:' .. KEYS[1], v, t) return v";
  static final String COMPLETE =
      "local t = redis.call('INCR', 'tick') redis.call('HSET', 'e:' .. KEYS[1], ARGV[1], t) "
          + "local b = tonumber(redis.call('HGET', 'b:' .. KEYS[1], ARGV[1])) "
          + "local f = tonumber(redis.call('HGET', 'f', KEYS[1]) or '0') "
          + "if b > f then redis.call('HSET', 'f', KEYS[1], b) end return t";

  private FleetWorker() {}

  public static void main(String[] args) throws Exception {
    Path configFile = Path.of(args[0]);
    String recorderUri = args[1];
    int keys = Integer.parseInt(args[2]);
    long runNanos = Duration.ofSeconds(Long.parseLong(args[3])).toNanos();
    Path out = Path.of(args[4]);
    RedisClient recorderClient = RedisClient.create(recorderUri);
    AtomicLong loads = new AtomicLong();
    AtomicLong exceptions = new AtomicLong();
    List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.load(configFile)))) {
      ConfigWatch watch = ConfigWatch.start(manager, configFile, Duration.ofMillis(50));
      TypedCache<Object, String> cache = manager.cache("users").typed(String.class);
      Files.writeString(Path.of(out + ".ready"), "ready");
      Path stopFile = Path.of(out + ".stop");
      long end = System.nanoTime() + runNanos;
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        threads.add(
            new Thread(
                () -> {
                  try (StatefulRedisConnection<String, String> conn = recorderClient.connect()) {
                    RedisCommands<String, String> rec = conn.sync();
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    while (System.nanoTime() < end && !Files.exists(stopFile)) {
                      String k = "k" + r.nextInt(keys);
                      int dice = r.nextInt(100);
                      try {
                        if (dice < 25) {
                          long v = rec.eval(BEGIN, ScriptOutputType.INTEGER, k);
                          if (dice < 5) {
                            cache.evict(k);
                          } else {
                            cache.put(k, k + "#" + v);
                          }
                          rec.eval(COMPLETE, ScriptOutputType.INTEGER, new String[] {k}, "" + v);
                        } else {
                          String f = rec.hget("f", k);
                          long floor = f == null ? 0 : Long.parseLong(f);
                          boolean[] loaded = {false};
                          long started = System.nanoTime();
                          String got =
                              cache.get(
                                  k,
                                  key -> {
                                    loaded[0] = true;
                                    loads.incrementAndGet();
                                    String cur = rec.hget("v", k);
                                    return k + "#" + (cur == null ? 0 : cur);
                                  });
                          long took = System.nanoTime() - started;
                          lines.add(
                              "R "
                                  + k
                                  + " "
                                  + got.substring(got.indexOf('#') + 1)
                                  + " "
                                  + floor
                                  + " "
                                  + took
                                  + " "
                                  + System.currentTimeMillis()
                                  + " "
                                  + (loaded[0] ? 0 : 1));
                        }
                      } catch (RuntimeException e) {
                        if (exceptions.incrementAndGet() < 5) {
                          e.printStackTrace();
                        }
                      }
                    }
                  }
                }));
      }
      threads.add(
          new Thread(
              () -> {
                String last = "";
                while (System.nanoTime() < end && !Files.exists(stopFile)) {
                  String nodes = manager.ring().nodes().toString();
                  if (!nodes.equals(last)) {
                    lines.add("C " + System.currentTimeMillis() + " " + nodes.replace(' ', '_'));
                    last = nodes;
                  }
                  try {
                    Thread.sleep(5);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }));
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      lines.add(
          "S "
              + loads.get()
              + " "
              + exceptions.get()
              + " "
              + manager.cacheStats().get("users").migrationHitCount()
              + " "
              + manager.nodeStats().values().stream().mapToLong(CacheStats::errorCount).sum());
      watch.close();
    } finally {
      recorderClient.shutdown();
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      synchronized (lines) {
        lines.forEach(w::println);
      }
    }
  }
}
