package io.github.chash.benchmarks.redis;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The same operations as {@link RedisCacheBenchmark} ({@link RedisFixture}), but chash and plain
 * Lettuce run at the same time, with the same number of threads each (JMH groups): on a shared,
 * busy machine both see the same interference, so their ratio is steadier than two runs one after
 * the other. {@code -tg N,N} gives each contender N threads (default 1,1).
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class RedisSideBySideBenchmark extends RedisFixture {

  @Benchmark
  @Group("get")
  @GroupThreads(1)
  public Object getChash(Cursor cursor) {
    return chashGet(cursor);
  }

  @Benchmark
  @Group("get")
  @GroupThreads(1)
  public Object getLettuce(Cursor cursor) throws ExecutionException, InterruptedException {
    return lettuceGet(cursor);
  }

  @Benchmark
  @Group("put")
  @GroupThreads(1)
  public void putChash(Cursor cursor) {
    chashPut(cursor);
  }

  @Benchmark
  @Group("put")
  @GroupThreads(1)
  public Object putLettuce(Cursor cursor) throws ExecutionException, InterruptedException {
    return lettucePut(cursor);
  }
}
