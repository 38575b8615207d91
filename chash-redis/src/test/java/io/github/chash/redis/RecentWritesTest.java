package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The read-your-writes rule of replica reads, on a clock the test moves. */
class RecentWritesTest {
  private final AtomicLong clock = new AtomicLong(1_000);

  @Test
  void aKeyWritten_isReadFromThePrimary_untilTheReplicasAreConfirmedToHaveIt() {
    RecentWrites recent = new RecentWrites(100, clock::get);
    assertThat(recent.needsPrimary("a")).isFalse();
    recent.wrote("a");
    long writtenAt = clock.get();
    clock.addAndGet(60_000_000_000L); // a minute: time alone releases nothing
    assertThat(recent.needsPrimary("a")).isTrue();
    assertThat(recent.needsPrimary("b")).isFalse();
    recent.confirmedBefore(writtenAt); // a reading from just before the write: not enough
    assertThat(recent.needsPrimary("a")).isTrue();
    recent.confirmedBefore(writtenAt + 1);
    assertThat(recent.needsPrimary("a")).isFalse();
    assertThat(recent.size()).as("a confirmed key is forgotten when read").isZero();
  }

  @Test
  void confirmationsNeverMoveBack() {
    RecentWrites recent = new RecentWrites(100, clock::get);
    recent.wrote("a");
    recent.confirmedBefore(clock.get() + 1);
    clock.addAndGet(10);
    recent.wrote("b");
    recent.confirmedBefore(clock.get() - 100); // an older reading, folded in late
    assertThat(recent.needsPrimary("a")).isFalse();
    assertThat(recent.needsPrimary("b")).isTrue();
  }

  @Test
  void aWriteOfUnnamedKeys_sendsEveryReadToThePrimaryUntilConfirmed() {
    RecentWrites recent = new RecentWrites(100, clock::get);
    recent.wroteAll();
    clock.addAndGet(60_000_000_000L);
    assertThat(recent.needsPrimary("any")).isTrue();
    recent.confirmedBefore(clock.get());
    assertThat(recent.needsPrimary("any")).isFalse();
  }

  @Test
  void pastItsCapacity_confirmedKeysGo_andTooManyUnconfirmedOnesHoldTheWholeNode() {
    RecentWrites recent = new RecentWrites(10, clock::get);
    for (int i = 0; i < 10; i++) {
      recent.wrote("old" + i);
    }
    clock.addAndGet(1);
    recent.confirmedBefore(clock.get());
    recent.wrote("new");
    assertThat(recent.size()).as("the confirmed writes were dropped").isEqualTo(1);
    assertThat(recent.needsPrimary("other")).isFalse();

    for (int i = 0; i < 10; i++) {
      recent.wrote("fresh" + i);
    }
    assertThat(recent.size()).as("the map started over").isZero();
    assertThat(recent.needsPrimary("fresh3")).as("still covered").isTrue();
    assertThat(recent.needsPrimary("other")).isTrue();
    clock.addAndGet(1);
    recent.confirmedBefore(clock.get());
    assertThat(recent.needsPrimary("fresh3")).isFalse();
  }
}
