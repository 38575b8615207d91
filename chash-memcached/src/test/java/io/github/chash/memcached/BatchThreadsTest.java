package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The memcached nodes' threads are bounded: a call beyond them runs on its caller's thread. */
class BatchThreadsTest {
  @Test
  void aCallBeyondTheBoundRunsOnItsCaller() throws Exception {
    Thread caller = Thread.currentThread();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(BatchThreads.MAX_THREADS);
    List<CompletableFuture<Thread>> busy = new ArrayList<>();
    try {
      for (int i = 0; i < BatchThreads.MAX_THREADS; i++) {
        busy.add(
            CompletableFuture.supplyAsync(
                () -> {
                  started.countDown();
                  // run on the caller when other tests hold pool threads: it must not block then
                  if (Thread.currentThread() != caller) {
                    await(release);
                  }
                  return Thread.currentThread();
                },
                BatchThreads.INSTANCE));
      }
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

      Thread ranOn =
          CompletableFuture.supplyAsync(Thread::currentThread, BatchThreads.INSTANCE).join();

      assertThat(ranOn).isSameAs(caller);
    } finally {
      release.countDown();
    }
    for (CompletableFuture<Thread> call : busy) {
      Thread thread = call.get(10, TimeUnit.SECONDS);
      if (thread == caller) {
        continue;
      }
      assertThat(thread.isDaemon()).isTrue();
      assertThat(thread.getName()).startsWith("chash-memcached-");
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
