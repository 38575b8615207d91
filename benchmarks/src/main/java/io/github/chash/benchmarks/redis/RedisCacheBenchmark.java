package io.github.chash.benchmarks.redis;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Gets and puts through chash's sharded cache to three local {@code redis-server}s, against plain
 * Lettuce async commands (awaited) to the same servers ({@link RedisFixture}): the cost of the ring
 * lookup, the codec (JDK serialization of a {@code byte[]}), the failure policy's bookkeeping and
 * the stats. Run with {@code -t 2} and {@code -t 8} for the two concurrencies; modes are throughput
 * and sampled latency (p50, p99).
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Threads(2)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class RedisCacheBenchmark extends RedisFixture {

  @Benchmark
  public Object chashGet(Cursor cursor) {
    return super.chashGet(cursor);
  }

  @Benchmark
  public Object lettuceGet(Cursor cursor) throws ExecutionException, InterruptedException {
    return super.lettuceGet(cursor);
  }

  @Benchmark
  public void chashPut(Cursor cursor) {
    super.chashPut(cursor);
  }

  @Benchmark
  public Object lettucePut(Cursor cursor) throws ExecutionException, InterruptedException {
    return super.lettucePut(cursor);
  }
}
