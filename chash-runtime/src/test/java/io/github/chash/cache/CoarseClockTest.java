package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class CoarseClockTest {

  @Test
  void read_isNeverAheadOfNanoTimeAndAdvancesWhileUsed() {
    CoarseClock clock = new CoarseClock().acquire();
    try {
      long start = clock.read();
      for (int i = 0; i < 1_000; i++) {
        assertThat(clock.read()).isLessThanOrEqualTo(System.nanoTime());
      }
      Awaitility.await("the clock advanced")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(1))
          .atMost(Duration.ofSeconds(10))
          .until(() -> clock.read() != start);
      assertThat(clock.read()).isGreaterThan(start);
    } finally {
      clock.release();
    }
  }

  @Test
  void release_theLastUserStopsTheThread() {
    CoarseClock clock = new CoarseClock();
    assertThat(clock.isTicking()).isFalse();
    clock.acquire();
    clock.acquire();
    clock.release();
    assertThat(clock.isTicking()).isTrue();
    clock.release();
    assertThat(clock.isTicking()).isFalse();
    clock.release(); // one release too many changes nothing
    assertThat(clock.acquire().isTicking()).isTrue();
    clock.release();
  }
}
