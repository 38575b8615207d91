package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

class LocalCacheNodeContractTest extends CacheNodeContractTest {
  private final FakeTicker ticker = new FakeTicker();

  @Override
  protected CacheNode createNode() {
    return CacheNodes.local("n1", 10_000, ticker);
  }

  @Override
  protected void assertNeverExpires(CacheNode node, String key) {
    ticker.advance(Duration.ofDays(1000));
    assertThat(node.get(key, ValueType.OBJECT)).isNotNull();
  }

  @Override
  protected void expireClock(Duration by) {
    ticker.advance(by);
  }

  @Override
  protected boolean writeForeignEntry() {
    return false; // an in-process shard holds this library's entries only
  }

  @Override
  protected boolean foreignEntryExists() {
    return false;
  }

  @Override
  protected Object valueItRefuses() {
    return null; // values are kept by reference, never encoded
  }

  @Override
  protected boolean countsEntries() {
    return true; // the Caffeine cache's own count
  }
}
