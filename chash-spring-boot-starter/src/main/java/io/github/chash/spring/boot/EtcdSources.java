package io.github.chash.spring.boot;

import io.github.chash.etcd.EtcdSource;
import io.github.chash.membership.MembershipSource;
import java.util.List;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/** {@code chash.membership.source=etcd}: {@link EtcdSource#connect} from properties. */
final class EtcdSources implements MembershipSourceFactory {
  private static final String PREFIX = "chash.membership.etcd.";

  private final MembershipProperties.Etcd properties;

  EtcdSources(MembershipProperties.Etcd properties) {
    this.properties = properties;
  }

  @Override
  public MembershipProperties.Source kind() {
    return MembershipProperties.Source.ETCD;
  }

  @Override
  public MembershipSource create() {
    List<String> endpoints = properties.getEndpoints();
    if (endpoints == null || endpoints.isEmpty()) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + "endpoints",
          endpoints,
          "must name the cluster's client URLs, e.g. " + PREFIX + "endpoints=http://etcd1:2379");
    }
    String key = properties.getKey();
    String prefix = properties.getPrefix();
    // the two layouts read differently (one document, or one node per key): exactly one is meant
    if ((key == null) == (prefix == null)) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + (key == null ? "key" : "prefix"),
          key == null ? null : prefix,
          "set exactly one of "
              + PREFIX
              + "key (a key holding a chash.yaml document, e.g. /chash/ring) and "
              + PREFIX
              + "prefix (one key per node under it, e.g. /chash/nodes/)");
    }
    String name =
        PropertyValues.required(
            PREFIX + (key != null ? "key" : "prefix"),
            key != null ? key : prefix,
            key != null ? "/chash/ring" : "/chash/nodes/");
    return EtcdSource.connect(
        endpoints,
        name,
        prefix != null,
        PropertyValues.positive(PREFIX + "probe-interval", properties.getProbeInterval()));
  }
}
