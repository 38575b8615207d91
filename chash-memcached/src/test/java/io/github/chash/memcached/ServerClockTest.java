package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a reading of memcached's clock makes of a {@code stats} reply. */
class ServerClockTest {
  private static final System.Logger LOG = System.getLogger(ServerClockTest.class.getName());
  private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 11311);

  private static ServerClock clock(Clock wall) {
    return new ServerClock("m1", "memcached://127.0.0.1:11311", wall, LOG);
  }

  private static Clock wallAt(long epochMillis) {
    return Clock.fixed(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
  }

  @Test
  void reading_isTheMiddleOfTheServersSecond_andRunsOnWithNanoTime_whateverTheWallClockSays() {
    ServerClock clock = clock(wallAt(1_000)); // a wall clock decades off, and stopped
    assertThat(clock.mustRead()).isTrue();
    assertThatThrownBy(clock::millis).isInstanceOf(IllegalStateException.class);

    long sent = System.nanoTime();
    clock.read(Map.of(SERVER, Map.of("time", "1800000000", "pid", "1")), sent, sent);
    long millis = clock.millis();
    long elapsed = Duration.ofNanos(System.nanoTime() - sent).toMillis();

    assertThat(clock.mustRead()).isFalse();
    assertThat(millis).isBetween(1_800_000_000_500L, 1_800_000_000_500L + elapsed + 1);
  }

  @Test
  void replyWithoutTime_leavesTheWallClock() {
    long now = System.currentTimeMillis();
    ServerClock clock = clock(wallAt(now));
    long sent = System.nanoTime();
    clock.read(Map.of(SERVER, Map.of("pid", "1")), sent, sent);
    assertThat(clock.millis()).isBetween(now - 1_000, now + 1_000);
  }

  @Test
  void aReconnect_makesTheNextCallReadAgain_andARefreshIsClaimedOncePerMinute() {
    ServerClock clock = clock(Clock.systemUTC());
    long sent = System.nanoTime();
    clock.read(Map.of(SERVER, Map.of("time", "1800000000")), sent, sent);
    assertThat(clock.claimRefresh()).as("a reading just taken").isFalse();
    clock.connected();
    assertThat(clock.mustRead()).isTrue();
    assertThat(clock.millis()).as("the last reading serves until then").isPositive();

    // a reading older than a minute
    long old = sent - ServerClock.REFRESH_NANOS - 1;
    clock.read(Map.of(SERVER, Map.of("time", "1800000000")), old, old);
    assertThat(clock.claimRefresh()).isTrue();
    assertThat(clock.claimRefresh()).as("claimed once").isFalse();
  }

  @Test
  void aSlowRoundTrip_isReadAgainASecondLater_aFastOneAMinuteLater() {
    long received = System.nanoTime() - ServerClock.RETRY_SLOW_NANOS - 1; // a second ago
    ServerClock slow = clock(Clock.systemUTC());
    slow.read(
        Map.of(SERVER, Map.of("time", "1800000000")),
        received - ServerClock.SLOW_ROUND_TRIP_NANOS - 1,
        received);
    assertThat(slow.claimRefresh()).isTrue();

    ServerClock fast = clock(Clock.systemUTC());
    fast.read(Map.of(SERVER, Map.of("time", "1800000000")), received - 1_000_000, received);
    assertThat(fast.claimRefresh()).isFalse();
  }
}
