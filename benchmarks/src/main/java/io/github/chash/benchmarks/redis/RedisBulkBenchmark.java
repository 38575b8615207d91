package io.github.chash.benchmarks.redis;

import io.github.chash.cache.TypedCache;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 14's bulk read: 100 keys spread over the three servers of {@link RedisFixture}, read by
 * chash's {@code TypedCache.getAll} (keys grouped by node, one {@code MGET} per node, all sent
 * before any is awaited, values decoded), by 100 sequential Lettuce {@code GET}s, and by a
 * hand-written per-server {@code MGET} (keys grouped by their server, the three sent at once), both
 * with the values left as raw bytes and decoded as chash's default codec stores them (JDK
 * serialization), which is the work chash's {@code getAll} does. One operation is one batch of 100
 * keys.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RedisBulkBenchmark extends RedisFixture {
  static final int BATCH = 100;

  private TypedCache<Object, byte[]> typed;

  @Override
  @Setup(Level.Trial)
  public void start() throws ExecutionException, InterruptedException {
    super.start();
    typed = cache.typed(byte[].class);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    serialized = bytes.toByteArray();
  }

  /** One thread's batches: 100 consecutive keys of the fixture's key set. */
  @State(Scope.Thread)
  public static class Batch {
    int first;

    int next() {
      first = (first + BATCH) & 1023;
      return first;
    }
  }

  @Benchmark
  public Map<String, Object> chashGetAll(Batch batch) {
    int first = batch.next();
    List<String> keys = new ArrayList<>(BATCH);
    for (int i = 0; i < BATCH; i++) {
      keys.add(routingKeys[(first + i) & 1023]);
    }
    return getAllRouted(keys);
  }

  /** {@code TypedCache.getAll} of the routing keys' user keys, as a program would call it. */
  /** A value as chash's JDK codec reads it (here the stored bytes are the plain key's own). */
  private int decoded(byte[] plainValue) {
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(serialized))) {
      return in.readObject() != null && plainValue.length > 0 ? 1 : 0;
    } catch (java.io.IOException | ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The fixture's value as chash's JDK codec writes it, for the decoding baseline. */
  private byte[] serialized;

  private Map<String, Object> getAllRouted(List<String> routingKeys) {
    List<Object> userKeys = new ArrayList<>(routingKeys.size());
    for (String routingKey : routingKeys) {
      userKeys.add(routingKey.substring(routingKey.indexOf(':') + 1));
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    Map<String, Object> values = (Map) typed.getAll(userKeys);
    return values;
  }

  @Benchmark
  public int lettuceSequentialGets(Batch batch) throws ExecutionException, InterruptedException {
    int first = batch.next();
    int found = 0;
    for (int i = 0; i < BATCH; i++) {
      int k = (first + i) & 1023;
      found += plain.get(k % 3).get(plainKeys[k]).get() != null ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  public int lettuceMgetPerServer(Batch batch) throws ExecutionException, InterruptedException {
    return mgetPerServer(batch, false);
  }

  @Benchmark
  public int lettuceMgetPerServerDecoded(Batch batch)
      throws ExecutionException, InterruptedException {
    return mgetPerServer(batch, true);
  }

  private int mgetPerServer(Batch batch, boolean decode)
      throws ExecutionException, InterruptedException {
    int first = batch.next();
    List<List<String>> byServer = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int i = 0; i < BATCH; i++) {
      int k = (first + i) & 1023;
      byServer.get(k % 3).add(plainKeys[k]);
    }
    List<RedisFuture<List<KeyValue<String, byte[]>>>> replies = new ArrayList<>(3);
    for (int s = 0; s < 3; s++) {
      replies.add(plain.get(s).mget(byServer.get(s).toArray(new String[0])));
    }
    int found = 0;
    for (RedisFuture<List<KeyValue<String, byte[]>>> reply : replies) {
      for (KeyValue<String, byte[]> kv : reply.get()) {
        if (kv.hasValue()) {
          found += decode ? decoded(kv.getValue()) : 1;
        }
      }
    }
    return found;
  }
}
