package io.github.chash.membership;

/**
 * Where a fleet's ring lives: a ZooKeeper znode, an etcd key, a Kubernetes Service's
 * EndpointSlices, a file. Started once with the listener its states go to; it reconnects by itself
 * and tells the listener when it cannot.
 */
public interface MembershipSource extends AutoCloseable {

  /**
   * {@return what the source watches, for logs and health: {@code zookeeper 127.0.0.1:2181
   * /chash/nodes}}
   */
  String describe();

  /**
   * Starts watching: the current state is delivered as soon as it is read, then each change.
   * Returns without waiting for the first state.
   *
   * @param listener where states and reachability go
   * @throws IllegalStateException if the source was started already
   */
  void start(MembershipListener listener);

  /** Stops watching and releases the client; never throws. */
  @Override
  void close();
}
