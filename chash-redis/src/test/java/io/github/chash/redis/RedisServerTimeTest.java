package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The deadline a put carries: never later than its caller gives up, in the server's clock. */
class RedisServerTimeTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void noReading_noDeadline() {
    assertThat(new RedisServerTime().deadlineMicros(100 * MS, 0)).isZero();
  }

  @Test
  void deadline_isTheCallersGiveUpInTheServersClock_lessHalfTheRoundTrip() {
    RedisServerTime time = new RedisServerTime();
    // sent at 1,000 ms, answered at 1,002 ms: the server said 5,000,000 µs at 1,001 ms
    time.read(5_000_000, 1_000 * MS, 1_002 * MS);
    // a call starting at 1,001 ms with a 100 ms timeout gives up at server 5,100,000 µs at the
    // earliest; the reading may be 1 ms off
    assertThat(time.deadlineMicros(100 * MS, 1_001 * MS)).isEqualTo(5_099_000);
  }

  @Test
  void anOlderReading_givesUpMoreForDrift() {
    RedisServerTime time = new RedisServerTime();
    time.read(5_000_000, 1_000 * MS, 1_000 * MS);
    long tenSecondsLater = (1_000 + 10_000) * MS;
    // 10 s since: 5 ms of drift allowed (500 µs a second)
    assertThat(time.deadlineMicros(100 * MS, tenSecondsLater))
        .isEqualTo(5_000_000 + 10_000_000 + 100_000 - 5_000);
  }

  @Test
  void forget_dropsTheReading() {
    RedisServerTime time = new RedisServerTime();
    time.read(5_000_000, 0, 0);
    time.forget();
    assertThat(time.deadlineMicros(100 * MS, 0)).isZero();
  }
}
