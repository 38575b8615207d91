package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test says so. */
final class FakeTicker implements Ticker {
  private final AtomicLong nanos = new AtomicLong();

  @Override
  public long read() {
    return nanos.get();
  }

  void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }
}
