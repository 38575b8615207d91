package io.github.chash.redis;

import io.github.chash.cache.RemoteFailoverScenarios;
import io.github.chash.cache.TestFleet;
import io.github.chash.cache.VerbatimKeys;
import io.github.chash.internal.codec.JdkSerializationCodec;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RemoteFailoverScenarios} on three real redis-servers. */
class RedisFailoverIT extends RemoteFailoverScenarios {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Override
  protected TestFleet fleet() {
    return fleet;
  }

  @Override
  protected boolean stored(String nodeId, String routingKey) {
    // a value: a tombstone an evict leaves (see Marker) holds none
    byte[] bytes =
        VerbatimKeys.isVerbatim(routingKey)
            ? fleet.server(nodeId).getBytes(serverKey(routingKey))
            : fleet.server(nodeId).getEntry(serverKey(routingKey));
    return bytes != null && io.github.chash.internal.codec.MarkerBytes.decode(bytes) == null;
  }

  /** The server's key: a verbatim cache's as given, another under the default keyPrefix. */
  private static String serverKey(String routingKey) {
    return VerbatimKeys.isVerbatim(routingKey)
        ? VerbatimKeys.key(routingKey)
        : "chash:" + routingKey;
  }

  @Override
  protected void plantLeftover(String nodeId, String routingKey, String value) {
    byte[] own = new JdkSerializationCodec(List.of()).encode(value);
    if (VerbatimKeys.isVerbatim(routingKey)) {
      fleet.server(nodeId).setBytes(serverKey(routingKey), own);
    } else {
      fleet.server(nodeId).setEntry(serverKey(routingKey), own);
    }
  }

  @Override
  protected boolean readable(String nodeId, String routingKey) {
    return stored(nodeId, routingKey);
  }

  @Override
  protected void plantForeignKey(String nodeId) {
    fleet.server(nodeId).command("SET", "other-app:key", "kept");
  }

  @Override
  protected boolean foreignKeyKept(String nodeId) {
    return "kept".equals(fleet.server(nodeId).command("GET", "other-app:key"));
  }
}
