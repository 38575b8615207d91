package io.github.chash.redis;

import io.github.chash.cache.RemoteFailoverScenarios;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.codec.JdkSerializationCodec;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RemoteFailoverScenarios} on three real redis-servers. */
class RedisFailoverIT extends RemoteFailoverScenarios {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Override
  protected ShardedCacheManager manager() {
    return fleet.manager(FAILOVER);
  }

  @Override
  protected List<String> nodeIds() {
    return fleet.nodeIds();
  }

  @Override
  protected long pid(String nodeId) {
    return fleet.server(nodeId).pid();
  }

  @Override
  protected int port(String nodeId) {
    return fleet.server(nodeId).port();
  }

  @Override
  protected void kill(String nodeId) {
    fleet.server(nodeId).kill();
  }

  @Override
  protected void restart(String nodeId) {
    fleet.server(nodeId).restart();
  }

  @Override
  protected void pause(String nodeId) {
    fleet.server(nodeId).pause();
  }

  @Override
  protected void resume(String nodeId) {
    fleet.server(nodeId).resume();
  }

  @Override
  protected boolean stored(String nodeId, String routingKey) {
    return fleet.server(nodeId).command("EXISTS", "chash:" + routingKey).equals(1L);
  }

  @Override
  protected void plantLeftover(String nodeId, String routingKey, String value) {
    fleet
        .server(nodeId)
        .setBytes("chash:" + routingKey, new JdkSerializationCodec(List.of()).encode(value));
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
