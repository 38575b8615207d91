package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The read-your-writes rule of replica reads, on a clock the test moves. */
class RecentWritesTest {
  private static final long LAG = Duration.ofSeconds(1).toNanos();

  private final AtomicLong clock = new AtomicLong(1_000);

  @Test
  void aKeyWrittenWithinTheLag_isReadFromThePrimary_thenFromAReplica() {
    RecentWrites recent = new RecentWrites(Duration.ofSeconds(1), 100, clock::get);
    assertThat(recent.needsPrimary("a")).isFalse();
    recent.wrote("a");
    clock.addAndGet(LAG - 1);
    assertThat(recent.needsPrimary("a")).isTrue();
    assertThat(recent.needsPrimary("b")).isFalse();
    clock.addAndGet(1);
    assertThat(recent.needsPrimary("a")).isFalse();
    assertThat(recent.size()).as("an expired key is forgotten when read").isZero();
  }

  @Test
  void aWriteOfUnnamedKeys_sendsEveryReadToThePrimaryForTheLag() {
    RecentWrites recent = new RecentWrites(Duration.ofSeconds(1), 100, clock::get);
    recent.wroteAll();
    assertThat(recent.needsPrimary("any")).isTrue();
    clock.addAndGet(LAG);
    assertThat(recent.needsPrimary("any")).isFalse();
  }

  @Test
  void pastItsCapacity_expiredKeysGo_andTooManyFreshOnesHoldTheWholeNode() {
    RecentWrites recent = new RecentWrites(Duration.ofSeconds(1), 10, clock::get);
    for (int i = 0; i < 10; i++) {
      recent.wrote("old" + i);
    }
    clock.addAndGet(LAG);
    recent.wrote("new");
    assertThat(recent.size()).as("the old writes expired and were dropped").isEqualTo(1);
    assertThat(recent.needsPrimary("other")).isFalse();

    for (int i = 0; i < 10; i++) {
      recent.wrote("fresh" + i);
    }
    assertThat(recent.size()).as("the map started over").isZero();
    assertThat(recent.needsPrimary("fresh3")).as("still covered").isTrue();
    assertThat(recent.needsPrimary("other")).isTrue();
    clock.addAndGet(LAG);
    assertThat(recent.needsPrimary("fresh3")).isFalse();
  }
}
