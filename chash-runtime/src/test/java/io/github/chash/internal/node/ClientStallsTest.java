package io.github.chash.internal.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A timeout is blamed on the node only once the threads that read its replies could run (issue 27):
 * a single-thread executor stands for a client library's I/O thread, held busy by a latch as a CPU
 * quota holds a queued event loop.
 */
class ClientStallsTest {
  private static final Duration TIMEOUT = Duration.ofMillis(20);

  private final ExecutorService ioThread = Executors.newSingleThreadExecutor();
  private final CountDownLatch ioBusy = new CountDownLatch(1);
  private final CountDownLatch checking = new CountDownLatch(1);

  /** The I/O check: a no-op queued on the I/O thread, announced so the test can act on it. */
  private final ClientStalls.IoCheck io =
      () -> {
        checking.countDown();
        return CompletableFuture.runAsync(() -> {}, ioThread);
      };

  @AfterEach
  void stop() {
    ioBusy.countDown();
    ioThread.shutdownNow();
  }

  private void holdIoThread() {
    ioThread.execute(
        () -> {
          try {
            ioBusy.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  @Test
  void aReplyLeftUnreadByABusyIoThreadIsServedOnceItRuns() throws Exception {
    holdIoThread();
    CompletableFuture<String> reply = new CompletableFuture<>();
    // the reply has arrived: its read is queued on the I/O thread, behind what holds it
    ioThread.execute(() -> reply.complete("value"));
    ClientStalls.Deadline deadline = ClientStalls.deadline(TIMEOUT, io);

    CompletableFuture<String> served =
        CompletableFuture.supplyAsync(() -> awaitQuietly(deadline, reply));
    assertThat(checking.await(5, TimeUnit.SECONDS)).isTrue();
    ioBusy.countDown();

    assertThat(served.get(5, TimeUnit.SECONDS)).isEqualTo("value");
  }

  @Test
  void anIoThreadThatCannotRunBeforeTheBoundMakesAStallNotANodeTimeout() {
    holdIoThread();
    CompletableFuture<String> reply = new CompletableFuture<>();
    ClientStalls.Deadline deadline = ClientStalls.deadline(TIMEOUT, io);

    assertThatThrownBy(() -> deadline.await(reply))
        .isInstanceOf(TimeoutException.class)
        .satisfies(e -> assertThat(ClientStalls.isStall(e)).isTrue())
        .hasMessageContaining("not the node's failure");
  }

  @Test
  void aReplyMissingAfterTheIoThreadRanIsTheNodesTimeout() {
    CompletableFuture<String> reply = new CompletableFuture<>();
    ClientStalls.Deadline deadline = ClientStalls.deadline(TIMEOUT, io);

    assertThatThrownBy(() -> deadline.await(reply))
        .isInstanceOf(TimeoutException.class)
        .satisfies(e -> assertThat(ClientStalls.isStall(e)).isFalse())
        .hasMessageContaining("timed out after 20 ms");
    assertThat(checking.getCount()).isZero();
  }

  /**
   * A starved I/O thread writes the request only when it runs, just before the check's no-op: the
   * server answers within its timeout from there (here: when the next check comes), and the reply
   * is served; blamed at the first check, a healthy node was ejected in a cold burst (issue 43).
   */
  @Test
  void aRequestWrittenOnlyAtTheCheckHasTheTimeoutFromThere() throws Exception {
    CompletableFuture<String> reply = new CompletableFuture<>();
    assertThat(ClientStalls.deadline(TIMEOUT, answeredAtSecondCheck(reply)).await(reply))
        .isEqualTo("value");

    CompletableFuture<String> async = new CompletableFuture<>();
    CompletableFuture<String> bounded =
        ClientStalls.deadline(TIMEOUT, answeredAtSecondCheck(async)).bound(async);
    assertThat(bounded.get(5, TimeUnit.SECONDS)).isEqualTo("value");
  }

  /** An I/O check whose second run finds the server's reply, which came after the first. */
  private ClientStalls.IoCheck answeredAtSecondCheck(CompletableFuture<String> reply) {
    AtomicInteger checks = new AtomicInteger();
    return () -> {
      if (checks.incrementAndGet() == 2) {
        reply.complete("value");
      }
      return CompletableFuture.runAsync(() -> {}, ioThread);
    };
  }

  @Test
  void anAsyncReplyIsBlamedTheSameWay() throws Exception {
    holdIoThread();
    CompletableFuture<String> unread = new CompletableFuture<>();
    ioThread.execute(() -> unread.complete("value"));
    CompletableFuture<String> bounded = ClientStalls.deadline(TIMEOUT, io).bound(unread);
    assertThat(checking.await(5, TimeUnit.SECONDS)).isTrue();
    ioBusy.countDown();
    assertThat(bounded.get(5, TimeUnit.SECONDS)).isEqualTo("value");

    CompletableFuture<String> missing =
        ClientStalls.deadline(TIMEOUT, ClientStalls.IoCheck.NONE).bound(new CompletableFuture<>());
    assertThatThrownBy(() -> missing.get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .satisfies(e -> assertThat(ClientStalls.isStall(e)).isFalse())
        .hasRootCauseInstanceOf(TimeoutException.class);
  }

  private static String awaitQuietly(
      ClientStalls.Deadline deadline, CompletableFuture<String> reply) {
    try {
      return deadline.await(reply);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
