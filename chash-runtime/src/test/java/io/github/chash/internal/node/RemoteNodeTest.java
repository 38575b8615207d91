package io.github.chash.internal.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ValueType;
import io.github.chash.internal.codec.CacheCodecs;
import io.github.chash.internal.codec.StoredValues;
import io.github.chash.internal.codec.StringCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The connection life cycle the remote nodes share ({@link RemoteNode}, {@link NodeConnection}), on
 * a node whose "client library" is a future the test completes.
 */
class RemoteNodeTest {
  private static final System.Logger LOG = System.getLogger(RemoteNodeTest.class.getName());

  /** A node of one connection, opened by the test's futures; records what it closed. */
  private static final class FakeNode extends RemoteNode<String> {
    final List<CompletableFuture<String>> attempts = new ArrayList<>();
    final List<String> discarded = new ArrayList<>();
    final List<String> shutDown = new ArrayList<>();
    final NodeConnection<String> connection;

    FakeNode(Duration retryAfter) {
      super(
          "n1",
          "fake://host:1",
          Duration.ofMillis(100),
          new CacheCodecs(new StoredValues("n1", new StringCodec(), 1024, "redis", LOG), Map.of()),
          LOG);
      connection =
          connection(
              "",
              retryAfter,
              () -> {
                CompletableFuture<String> attempt = new CompletableFuture<>();
                attempts.add(attempt);
                return attempt;
              },
              discarded::add);
    }

    @Override
    protected void shutdown(List<String> open) {
      shutDown.addAll(open);
    }

    @Override
    public Object get(String key, ValueType type) {
      return null;
    }

    @Override
    public void put(String key, Object value, Duration ttl) {}

    @Override
    public void evict(String key) {}

    @Override
    public void clear() {}

    @Override
    public void ping() {}

    @Override
    public long estimatedSize() {
      return -1;
    }
  }

  @Test
  void closeHandsTheOpenConnectionToShutdown() {
    FakeNode node = new FakeNode(Duration.ofDays(1));
    node.attempts.get(0).complete("conn-1");
    assertThat(node.connection.get(Duration.ZERO)).isEqualTo("conn-1");

    node.close();
    node.close(); // once only

    assertThat(node.shutDown).containsExactly("conn-1");
    assertThatThrownBy(() -> node.connection.get(Duration.ZERO)).hasMessage("node is closed");
  }

  @Test
  void aConnectionUpAfterTheNodeClosedIsDiscarded() {
    FakeNode node = new FakeNode(Duration.ofDays(1));
    node.close();

    node.attempts.get(0).complete("late");

    assertThat(node.shutDown).isEmpty();
    assertThat(node.discarded).containsExactly("late");
  }

  @Test
  void aCallThatDidNotWaitIsNoTimeoutOneThatWaitedIs() {
    FakeNode node = new FakeNode(Duration.ofDays(1));

    // FailurePolicy treats a timeout as possibly the client's: only a call that waited had one
    assertThatThrownBy(() -> node.connection.get(Duration.ZERO))
        .hasMessage("not connected yet")
        .hasNoCause();
    assertThatThrownBy(() -> node.connection.get(Duration.ofMillis(1)))
        .hasMessage("not connected yet")
        .hasCauseInstanceOf(TimeoutException.class);
    assertThat(node.attempts).hasSize(1); // the attempt under way is not started again
  }

  @Test
  void aFailedAttemptIsRetriedOnlyAfterTheRetryInterval() {
    FakeNode patient = new FakeNode(Duration.ofDays(1));
    patient.attempts.get(0).completeExceptionally(new IllegalStateException("refused"));

    assertThatThrownBy(() -> patient.connection.get(Duration.ZERO)).hasMessage("refused");
    assertThat(patient.attempts).hasSize(1);

    FakeNode eager = new FakeNode(Duration.ZERO);
    eager.attempts.get(0).completeExceptionally(new IllegalStateException("refused"));
    assertThatThrownBy(() -> eager.connection.get(Duration.ZERO)).hasMessage("not connected yet");
    assertThat(eager.attempts).hasSize(2);
    eager.attempts.get(1).complete("conn-2");
    assertThat(eager.connection.get(Duration.ZERO)).isEqualTo("conn-2");
  }

  @Test
  void expiryMillisIsAtLeastOneAndZeroForNone() {
    assertThat(RemoteNode.expiryMillis(null)).isZero();
    assertThat(RemoteNode.expiryMillis(Duration.ofDays(36_500))).isZero();
    assertThat(RemoteNode.expiryMillis(Duration.ofSeconds(Long.MAX_VALUE))).isZero();
    assertThat(RemoteNode.expiryMillis(Duration.ZERO)).isEqualTo(1);
    assertThat(RemoteNode.expiryMillis(Duration.ofNanos(1))).isEqualTo(1);
    assertThat(RemoteNode.expiryMillis(Duration.ofSeconds(2))).isEqualTo(2000);
  }
}
