package io.github.chash.spring.boot;

import io.github.chash.membership.MembershipSource;
import io.github.chash.zookeeper.ZooKeeperSource;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/** {@code chash.membership.source=zookeeper}: {@link ZooKeeperSource#connect} from properties. */
final class ZooKeeperSources implements MembershipSourceFactory {
  private static final String PREFIX = "chash.membership.zookeeper.";

  private final MembershipProperties.ZooKeeper properties;

  ZooKeeperSources(MembershipProperties.ZooKeeper properties) {
    this.properties = properties;
  }

  @Override
  public MembershipProperties.Source kind() {
    return MembershipProperties.Source.ZOOKEEPER;
  }

  @Override
  public MembershipSource create() {
    String connect =
        PropertyValues.required(
            PREFIX + "connect-string", properties.getConnectString(), "zk1:2181,zk2:2181");
    String path = PropertyValues.required(PREFIX + "path", properties.getPath(), "/chash/nodes");
    if (!path.startsWith("/") || (path.length() > 1 && path.endsWith("/"))) {
      // Curator would refuse it later, on its own thread, as a path it cannot watch
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + "path", path, "a znode path starts with / and does not end with one");
    }
    return ZooKeeperSource.connect(
        connect,
        path,
        PropertyValues.positive(PREFIX + "session-timeout", properties.getSessionTimeout()));
  }
}
