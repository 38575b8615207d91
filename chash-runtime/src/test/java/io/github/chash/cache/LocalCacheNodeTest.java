package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class LocalCacheNodeTest {
  private final FakeTicker ticker = new FakeTicker();

  @Test
  void put_eachEntryExpiresAfterItsOwnTtl() {
    CacheNode node = CacheNodes.local("a", 100, ticker);
    node.put("short:1", "s", Duration.ofSeconds(10));
    node.put("long:1", "l", Duration.ofMinutes(10));
    node.put("forever:1", "f", null);

    ticker.advance(Duration.ofSeconds(9));
    assertThat(node.get("short:1", ValueType.OBJECT)).isEqualTo("s");

    ticker.advance(Duration.ofSeconds(2));
    assertThat(node.get("short:1", ValueType.OBJECT)).isNull();
    assertThat(node.get("long:1", ValueType.OBJECT)).isEqualTo("l");

    ticker.advance(Duration.ofMinutes(10));
    assertThat(node.get("long:1", ValueType.OBJECT)).isNull();
    ticker.advance(Duration.ofDays(3650));
    assertThat(node.get("forever:1", ValueType.OBJECT)).isEqualTo("f");
  }

  @Test
  void put_overwriteRestartsTheTtl() {
    CacheNode node = CacheNodes.local("a", 100, ticker);
    node.put("k", "v1", Duration.ofSeconds(10));
    ticker.advance(Duration.ofSeconds(8));
    node.put("k", "v2", Duration.ofSeconds(10));
    ticker.advance(Duration.ofSeconds(8));
    assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v2");
  }

  @Test
  void get_readDoesNotExtendTheTtl() {
    CacheNode node = CacheNodes.local("a", 100, ticker);
    node.put("k", "v", Duration.ofSeconds(10));
    ticker.advance(Duration.ofSeconds(6));
    assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v");
    ticker.advance(Duration.ofSeconds(6));
    assertThat(node.get("k", ValueType.OBJECT)).isNull();
  }

  @Test
  void get_removesTheExpiredEntryItFinds() {
    LocalCacheNode node = new LocalCacheNode("a", 100, ticker);
    node.put("k", "v", Duration.ofSeconds(10));
    node.put("other", "o", Duration.ofSeconds(10));
    ticker.advance(Duration.ofSeconds(10));
    assertThat(node.get("k", ValueType.OBJECT)).isNull();
    node.cleanUp();
    assertThat(node.estimatedSize()).isZero();
  }

  @Test
  void put_ttlBeyondNanosecondRangeNeverExpires() {
    CacheNode node = CacheNodes.local("a", 100, ticker);
    node.put("k", "v", Duration.ofDays(365L * 1000));
    ticker.advance(Duration.ofDays(365L * 100));
    assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v");
  }

  @Test
  void put_sizeBoundHolds() {
    LocalCacheNode node = new LocalCacheNode("a", 50, ticker);
    for (int i = 0; i < 1000; i++) {
      node.put("k:" + i, i, null);
    }
    node.cleanUp();
    assertThat(node.estimatedSize()).isEqualTo(50);
  }

  @Test
  void get_returnsTheSameInstance() {
    CacheNode node = CacheNodes.local("a", 10);
    Object value = new Object();
    node.put("k", value, null);
    assertThat(node.get("k", ValueType.OBJECT)).isSameAs(value);
  }

  @Test
  void evictAndClear_removeEntries() {
    CacheNode node = CacheNodes.local("a", 10);
    node.put("k1", 1, null);
    node.put("k2", 2, null);
    node.evict("k1");
    assertThat(node.get("k1", ValueType.OBJECT)).isNull();
    assertThat(node.get("k2", ValueType.OBJECT)).isEqualTo(2);
    node.clear();
    assertThat(node.get("k2", ValueType.OBJECT)).isNull();
  }

  @Test
  void systemClockNode_servesAnEntryUntilItsTtl_andDropsItSoonAfter() {
    // The put takes its deadline from nanoTime(); reads check it against the coarse clock, which
    // never runs ahead of nanoTime(). So a read that ends within the TTL of the put's start must
    // hit, and a miss proves the TTL was over. What a tick late is, the bound below allows for.
    Duration ttl = Duration.ofMillis(200);
    Duration lateBound = Duration.ofSeconds(1); // a tick, and the clock's thread waiting for a core
    CacheNode node = CacheNodes.local("a", 100);
    try {
      String key;
      long putStarted;
      long putEnded;
      Object early;
      long earlyReadEnded;
      int attempt = 0;
      do { // a host stalled past the TTL between put and read tries again, with a new key
        key = "k" + attempt++;
        putStarted = System.nanoTime();
        node.put(key, "v", ttl);
        putEnded = System.nanoTime();
        early = node.get(key, ValueType.OBJECT);
        earlyReadEnded = System.nanoTime();
      } while (earlyReadEnded - putStarted >= ttl.toNanos() && attempt < 20);
      assertThat(earlyReadEnded - putStarted).as("a read within the TTL").isLessThan(ttl.toNanos());
      assertThat(early).isEqualTo("v");

      while (true) {
        long readStarted = System.nanoTime();
        Object read = node.get(key, ValueType.OBJECT);
        long readEnded = System.nanoTime();
        if (read == null) {
          assertThat(readEnded - putStarted)
              .as("dropped, never before the TTL")
              .isGreaterThanOrEqualTo(ttl.toNanos());
          break;
        }
        assertThat(readStarted - putEnded)
            .as("still served %s past the TTL", lateBound)
            .isLessThan(ttl.plus(lateBound).toNanos());
        LockSupport.parkNanos(Duration.ofMillis(1).toNanos()); // polling pace, not a wait for it
      }
    } finally {
      node.close();
    }
  }

  @Test
  void local_rejectsBadArguments() {
    assertThatThrownBy(() -> CacheNodes.local("a", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maximumSize of node \"a\" must be positive, was 0");
    assertThatThrownBy(() -> CacheNodes.local(" ", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node id must not be null or blank, was  ");
  }
}
