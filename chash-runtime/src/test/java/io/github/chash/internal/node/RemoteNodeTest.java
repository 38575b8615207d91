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
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
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
    volatile boolean answers = true;

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
    protected boolean ready(String open, long deadlineNanos) {
      return answers;
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

  /** What the node logs through {@code java.util.logging}, as "LEVEL message" lines. */
  private static final class Logged extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger(RemoteNodeTest.class.getName());
    private final List<String> lines = new ArrayList<>();

    Logged() {
      setLevel(Level.ALL);
      logger.setLevel(Level.ALL);
      logger.addHandler(this);
    }

    @Override
    public synchronized void publish(LogRecord record) {
      lines.add(record.getLevel() + " " + record.getMessage());
    }

    synchronized List<String> lines() {
      return List.copyOf(lines);
    }

    List<String> warnings() {
      return lines().stream().filter(line -> line.startsWith("WARNING")).toList();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  @Test
  void aBusyStartWhoseConnectionComesUpLateLogsNoWarning() {
    try (Logged logged = new Logged()) {
      FakeNode node = new FakeNode(Duration.ofDays(1));
      node.awaitReady(); // the attempt is still under way when its 1 s of connect timeout ends
      node.attempts.get(0).complete("conn-1");

      // issue 45: "cannot connect ... no answer within 1000 ms" was a WARNING on every busy start
      assertThat(logged.warnings()).isEmpty();
      assertThat(logged.lines())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .isEqualTo(
                          "INFO node \"n1\": still connecting to fake://host:1 after 1000 ms (the"
                              + " connect timeout); its calls are misses until it answers; a"
                              + " warning follows only if the attempt fails"))
          .anySatisfy(
              line ->
                  assertThat(line)
                      .matches(
                          "INFO node \"n1\": connected to fake://host:1, \\d+ ms after startup"));
    }
  }

  @Test
  void aConnectThatFailsIsOneWarningThatSaysItIsRetriedAndWhatToCheck() {
    try (Logged logged = new Logged()) {
      FakeNode node = new FakeNode(Duration.ZERO);
      node.attempts.get(0).completeExceptionally(new TimeoutException());
      node.awaitReady();
      assertThatThrownBy(() -> node.connection.get(Duration.ZERO)).hasMessage("not connected yet");
      node.attempts.get(1).completeExceptionally(new TimeoutException());

      // once, not again from awaitReady nor from the retry
      assertThat(logged.warnings())
          .containsExactly(
              "WARNING node \"n1\": cannot connect to fake://host:1: connect timed out after 1000 ms; its"
                  + " calls are misses until it answers, and the connect is tried again; if this"
                  + " persists, check that the server is up and reachable from this host");

      assertThatThrownBy(() -> node.connection.get(Duration.ZERO)) // starts the third attempt
          .hasMessage("not connected yet");
      node.attempts.get(2).complete("conn-3");
      assertThat(logged.lines().get(logged.lines().size() - 1))
          .matches("INFO node \"n1\": connected to fake://host:1, \\d+ ms after startup");
    }
  }

  @Test
  void aClientUpWhoseServerNeverAnswersIsAWarningThatCallsItATimeout() {
    try (Logged logged = new Logged()) {
      FakeNode node = new FakeNode(Duration.ofDays(1));
      node.answers = false; // memcached: the client is built, its session never comes up
      node.attempts.get(0).complete("client");
      node.awaitReady();

      assertThat(logged.warnings())
          .containsExactly(
              "WARNING node \"n1\": connecting to fake://host:1 timed out: no answer within 1000"
                  + " ms of startup; its calls are misses until it answers, and the client keeps"
                  + " reconnecting; if this persists, check that the server is up and reachable"
                  + " from this host");
    }
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
