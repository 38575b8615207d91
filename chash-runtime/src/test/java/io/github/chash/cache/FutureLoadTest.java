package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.FutureLoader;
import io.github.chash.internal.cache.InterceptedCache;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link InterceptedCache#loadFuture}: a method returning a future, as the aspect calls it. */
class FutureLoadTest {
  private final ShardedCacheManager manager =
      ShardedCaches.builder()
          .node(NodeConfig.local("a"))
          .node(NodeConfig.local("b"))
          .cache("users", null)
          .build();
  private final InterceptedCache users = InterceptedCache.of(manager.cache("users"));
  private final String key = users.routingKey("k", "T.m(k)");

  @AfterEach
  void close() {
    manager.close();
  }

  @Test
  void aFutureThatCompletesAfterAPutDoesNotOverwriteIt() throws Throwable {
    CompletableFuture<Object> slow = new CompletableFuture<>();
    CompletionStage<Object> returned =
        users.loadFuture(key, ValueType.OBJECT, () -> slow, false, v -> true);
    assertThat(returned).isSameAs(slow);

    users.put(key, "v2"); // completes while the future still runs
    slow.complete("v1");

    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("v2");
  }

  @Test
  void aCompletedFutureIsStoredWhenStorableAcceptsIt() throws Throwable {
    users.loadFuture(
        key, ValueType.OBJECT, () -> CompletableFuture.completedFuture("v1"), false, v -> true);
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("v1");

    String other = users.routingKey("refused", "T.m(k)");
    users.loadFuture(
        other, ValueType.OBJECT, () -> CompletableFuture.completedFuture("x"), false, v -> false);
    assertThat(users.getIfPresent(other, ValueType.OBJECT)).isNull();
  }

  @Test
  void syncCallersShareOneRunningFutureWithoutBlocking() throws Throwable {
    AtomicInteger starts = new AtomicInteger();
    CompletableFuture<Object> slow = new CompletableFuture<>();
    FutureLoader<Object> loader =
        () -> {
          starts.incrementAndGet();
          return slow;
        };
    CompletionStage<Object> first =
        users.loadFuture(key, ValueType.OBJECT, loader, true, v -> true);
    CompletionStage<Object> second =
        users.loadFuture(key, ValueType.OBJECT, loader, true, v -> true);
    assertThat(second.toCompletableFuture()).isNotDone();

    slow.complete("v1");

    assertThat(second.toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo("v1");
    assertThat(first.toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo("v1");
    assertThat(starts).hasValue(1);
    // a blocking caller now finds the stored value
    assertThat(users.get(key, ValueType.OBJECT, () -> "loaded", true, false)).isEqualTo("v1");
  }

  @Test
  void aFailedFutureStoresNothingAndItsSharersSeeTheFailure() throws Throwable {
    CompletableFuture<Object> slow = new CompletableFuture<>();
    users.loadFuture(key, ValueType.OBJECT, () -> slow, true, v -> true);
    CompletionStage<Object> shared =
        users.loadFuture(key, ValueType.OBJECT, CompletableFuture::new, true, v -> true);

    IllegalStateException boom = new IllegalStateException("backend down");
    slow.completeExceptionally(boom);

    assertThat(shared.toCompletableFuture())
        .failsWithin(5, TimeUnit.SECONDS)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isSameAs(boom);
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
    assertThat(users.stats().loadFailureCount()).isEqualTo(1);
    // the failed load is no longer shared: the next caller starts its own
    CompletionStage<Object> next =
        users.loadFuture(
            key, ValueType.OBJECT, () -> CompletableFuture.completedFuture("v1"), true, v -> true);
    assertThat(next.toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo("v1");
  }

  @Test
  void aLoaderThatReturnsNoFutureGetsNullBackAndStoresNothing() throws Throwable {
    assertThat(users.loadFuture(key, ValueType.OBJECT, () -> null, true, v -> true)).isNull();
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }
}
