package io.github.chash.zookeeper;

import io.github.chash.membership.MembershipListener;
import io.github.chash.membership.MembershipSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.data.Stat;

/**
 * The ring a znode holds: its data is a {@code chash.yaml} document, the node list ({@code nodes:}
 * only) or a whole configuration. The epoch is the znode's {@code mzxid}, the id of the transaction
 * that last wrote it: ZooKeeper orders every write of the ensemble by it, so it only grows, even
 * across a delete and a re-create (whose {@code version} starts at 0 again).
 *
 * <p>Watched through Curator's {@code CuratorCache} (single node), which re-reads the znode after
 * every reconnection. A suspended or lost connection is reported as unreachable: the running ring
 * stays. A deleted znode is reported as a state that is not a ring. Write the node list with any
 * ZooKeeper client:
 *
 * <pre>{@code
 * zkCli.sh set /chash/nodes "nodes: [{id: a, type: redis, uri: 'redis://10.0.0.1:6379'}]"
 * }</pre>
 */
public final class ZooKeeperSource implements MembershipSource {
  private final CuratorFramework client;
  private final boolean ownsClient;
  private final String path;
  private final CuratorCache cache;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile MembershipListener listener;

  private final ConnectionStateListener connection =
      (client, state) -> {
        MembershipListener l = listener;
        if (l == null) {
          return;
        }
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
          l.unreachable("connection " + state.name().toLowerCase(java.util.Locale.ROOT));
        } else if (state.isConnected()) {
          l.connected();
        }
      };

  /**
   * A source on a client the application runs (and closes).
   *
   * @param client a Curator client, started or not
   * @param path the znode that holds the ring, e.g. {@code /chash/nodes}
   */
  public ZooKeeperSource(CuratorFramework client, String path) {
    this(client, path, false);
  }

  private ZooKeeperSource(CuratorFramework client, String path, boolean ownsClient) {
    this.client = Objects.requireNonNull(client, "client");
    this.path = Objects.requireNonNull(path, "path");
    this.ownsClient = ownsClient;
    this.cache = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
  }

  /**
   * {@return a source with a client of its own, closed with it; it retries a lost connection with a
   * backoff up to 5 s, for ever}
   *
   * @param connectString the ensemble, e.g. {@code zk1:2181,zk2:2181,zk3:2181}
   * @param path the znode that holds the ring, e.g. {@code /chash/nodes}
   * @param sessionTimeout the ZooKeeper session timeout
   */
  public static ZooKeeperSource connect(
      String connectString, String path, Duration sessionTimeout) {
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(connectString)
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs((int) Math.min(sessionTimeout.toMillis(), 15_000))
            .retryPolicy(new ExponentialBackoffRetry(100, Integer.MAX_VALUE, 5_000))
            .build();
    return new ZooKeeperSource(client, path, true);
  }

  @Override
  public String describe() {
    return "zookeeper " + client.getZookeeperClient().getCurrentConnectionString() + " " + path;
  }

  @Override
  public void start(MembershipListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the source " + describe() + " was started already");
    }
    this.listener = listener;
    client.getConnectionStateListenable().addListener(connection);
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forCreatesAndChanges((before, now) -> deliver(now))
                .forDeletes(this::deleted)
                .build());
    if (client.getState() == org.apache.curator.framework.imps.CuratorFrameworkState.LATENT) {
      client.start();
    }
    if (client.getZookeeperClient().isConnected()) {
      listener.connected();
    }
    cache.start();
  }

  private void deliver(ChildData data) {
    Stat stat = data.getStat();
    byte[] bytes = data.getData() == null ? new byte[0] : data.getData();
    listener.document(
        stat.getMzxid(),
        "mzxid 0x" + Long.toHexString(stat.getMzxid()) + ", version " + stat.getVersion(),
        bytes,
        path);
  }

  private void deleted(ChildData data) {
    // the delete's zxid is not told; the znode's last write plus one stands for it
    long epoch = data.getStat().getMzxid() + 1;
    listener.invalid(epoch, "znode " + path + " was deleted");
  }

  @Override
  public void close() {
    cache.close();
    client.getConnectionStateListenable().removeListener(connection);
    if (ownsClient) {
      client.close();
    }
  }
}
