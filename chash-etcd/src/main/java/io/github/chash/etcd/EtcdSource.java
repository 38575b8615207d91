package io.github.chash.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.github.chash.membership.MembershipListener;
import io.github.chash.membership.MembershipSource;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The ring etcd holds, in one of two layouts:
 *
 * <ul>
 *   <li><b>A key</b> ({@link #key}) whose value is a {@code chash.yaml} document, the node list
 *       ({@code nodes:} only) or a whole configuration. The epoch is the key's mod revision.
 *   <li><b>A prefix</b> ({@link #prefix}) under which each key holds one node, as a {@code nodes:}
 *       entry ({@code {id: a, type: redis, uri: 'redis://10.0.0.1:6379'}}), in key order: nodes can
 *       register and leave one by one (a lease keeps a node's key while it lives). The epoch is the
 *       store's revision at the read, which also moves when a key is deleted.
 * </ul>
 *
 * <p>Each state is read whole (a get), then a watch from the next revision tells of each change,
 * which is read whole again. A watch whose start revision was compacted away is answered by a new
 * read and a new watch from its revision; nothing is lost, since the read is the current state. A
 * probe reads every {@code probeInterval}: when it fails or times out the source is reported
 * unreachable (the running ring stays), and when it succeeds again the state is read and watched
 * anew.
 */
public final class EtcdSource implements MembershipSource {
  private static final System.Logger LOG = System.getLogger(EtcdSource.class.getName());

  private final Client client;
  private final boolean ownsClient;
  private final String name;
  private final ByteSequence key;
  private final boolean prefix;
  private final Duration probeInterval;
  private final ScheduledExecutorService worker;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean readPending = new AtomicBoolean();

  private volatile MembershipListener listener;

  /** The watch of the last read; touched on the worker thread only. */
  private Watch.Watcher watcher;

  /** Whether the last read or probe reached etcd; touched on the worker thread only. */
  private boolean reachable;

  private EtcdSource(
      Client client, boolean ownsClient, String name, boolean prefix, Duration probeInterval) {
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.name = Objects.requireNonNull(name, "key");
    this.key = ByteSequence.from(name, UTF_8);
    this.prefix = prefix;
    if (probeInterval.isZero() || probeInterval.isNegative()) {
      throw new IllegalArgumentException("probeInterval must be positive, was " + probeInterval);
    }
    this.probeInterval = probeInterval;
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "chash-etcd-source");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * {@return a source of the {@code chash.yaml} document one key holds}
   *
   * @param client a jetcd client the application runs (and closes)
   * @param key the key, e.g. {@code /chash/ring}
   * @param probeInterval how often etcd is read to tell whether it is reachable
   */
  public static EtcdSource key(Client client, String key, Duration probeInterval) {
    return new EtcdSource(client, false, key, false, probeInterval);
  }

  /**
   * {@return a source of the nodes the keys under a prefix hold, one node each}
   *
   * @param client a jetcd client the application runs (and closes)
   * @param prefix the prefix, e.g. {@code /chash/nodes/}
   * @param probeInterval how often etcd is read to tell whether it is reachable
   */
  public static EtcdSource prefix(Client client, String prefix, Duration probeInterval) {
    return new EtcdSource(client, false, prefix, true, probeInterval);
  }

  /**
   * {@return a source with a client of its own, closed with it}
   *
   * @param endpoints the cluster's client URLs, e.g. {@code http://etcd1:2379}
   * @param key the key, or the prefix when {@code prefix}
   * @param prefix whether {@code key} is a prefix of one key per node
   * @param probeInterval how often etcd is read to tell whether it is reachable
   */
  public static EtcdSource connect(
      List<String> endpoints, String key, boolean prefix, Duration probeInterval) {
    Client client = Client.builder().endpoints(endpoints.toArray(String[]::new)).build();
    return new EtcdSource(client, true, key, prefix, probeInterval);
  }

  @Override
  public String describe() {
    return "etcd " + (prefix ? "prefix " : "key ") + name;
  }

  @Override
  public void start(MembershipListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the source " + describe() + " was started already");
    }
    this.listener = listener;
    requestRead();
    long every = probeInterval.toNanos();
    worker.scheduleWithFixedDelay(this::probe, every, every, TimeUnit.NANOSECONDS);
  }

  /** Reads the state on the worker; requests while one is pending are one read. */
  private void requestRead() {
    if (readPending.compareAndSet(false, true)) {
      try {
        worker.execute(this::read);
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        readPending.set(false);
      }
    }
  }

  private GetResponse get() throws Exception {
    GetOption option = prefix ? GetOption.builder().isPrefix(true).build() : GetOption.DEFAULT;
    return client
        .getKVClient()
        .get(key, option)
        .get(probeInterval.toNanos() * 2, TimeUnit.NANOSECONDS);
  }

  private void read() {
    readPending.set(false);
    GetResponse response;
    try {
      response = get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      lost(e);
      return;
    }
    if (!reachable) {
      reachable = true;
      listener.connected();
    }
    deliver(response);
    watchFrom(response.getHeader().getRevision() + 1);
  }

  private void deliver(GetResponse response) {
    List<KeyValue> kvs = response.getKvs();
    long revision = response.getHeader().getRevision();
    if (prefix) {
      StringBuilder yaml = new StringBuilder("nodes:\n");
      kvs.stream()
          .sorted(Comparator.comparing(kv -> kv.getKey().toString(UTF_8)))
          .forEach(
              kv ->
                  yaml.append("  - ")
                      .append(kv.getValue().toString(UTF_8).strip().replace("\n", "\n    "))
                      .append('\n'));
      listener.document(revision, "revision " + revision, yaml.toString().getBytes(UTF_8), name);
    } else if (kvs.isEmpty()) {
      listener.invalid(revision, "key " + name + " does not exist");
    } else {
      KeyValue kv = kvs.get(0);
      listener.document(
          kv.getModRevision(),
          "mod revision " + kv.getModRevision(),
          kv.getValue().getBytes(),
          name);
    }
  }

  /** Watches from {@code revision} from now on, on the worker thread: for tests. */
  void rewatchFrom(long revision) {
    worker.execute(() -> watchFrom(revision));
  }

  /** Watches from {@code revision}; each change, or a watch that fails, is read anew. */
  private void watchFrom(long revision) {
    if (watcher != null) {
      watcher.close();
    }
    WatchOption option = WatchOption.builder().withRevision(revision).isPrefix(prefix).build();
    watcher =
        client
            .getWatchClient()
            .watch(
                key,
                option,
                Watch.listener(
                    response -> requestRead(),
                    error -> {
                      if (error instanceof CompactedException compacted) {
                        LOG.log(
                            Level.INFO,
                            "{0}: the watch from revision {1} was compacted (to {2}); read anew",
                            describe(),
                            String.valueOf(revision),
                            String.valueOf(compacted.getCompactedRevision()));
                      }
                      requestRead();
                    }));
  }

  private void probe() {
    try {
      get();
      if (!reachable) {
        requestRead(); // reports connected, and watches anew
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      lost(e);
    }
  }

  private void lost(Exception e) {
    if (worker.isShutdown()) {
      return;
    }
    reachable = false;
    Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    listener.unreachable(
        e instanceof TimeoutException
            ? "no answer in " + probeInterval.multipliedBy(2)
            : cause.toString());
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (watcher != null) {
      watcher.close();
    }
    if (ownsClient) {
      client.close();
    }
  }
}
