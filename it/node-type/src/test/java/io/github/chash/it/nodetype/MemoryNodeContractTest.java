package io.github.chash.it.nodetype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeContractTest;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node type that is a jar: the manager finds this module's factory for {@code type: test-memory}
 * through {@link java.util.ServiceLoader}, and the node it makes passes the contract every node
 * type passes, with no change to chash.
 */
class MemoryNodeContractTest extends CacheNodeContractTest {
  private static final String YAML =
      """
      nodes:
        - id: n1
          type: test-memory
        - id: local-1
      caches:
        users:
          ttl: 5m
      """;

  private ShardedCacheManager manager;

  @Override
  protected CacheNode createNode() {
    manager = ShardedCaches.create(ChashConfigs.parse(YAML, "chash.yaml"));
    return manager.node("n1");
  }

  @AfterEach
  void closeManager() {
    manager.close();
  }

  @Override
  protected void assertNeverExpires(CacheNode node, String key) {
    assertThat(((MemoryNode) node).neverExpires(key)).isTrue();
  }

  @Override
  protected boolean writeForeignEntry() {
    return false; // the map holds this library's entries only
  }

  @Override
  protected boolean foreignEntryExists() {
    return false;
  }

  @Override
  protected boolean countsEntries() {
    return true; // the map's size
  }

  @Override
  protected Object valueItRefuses() {
    return null; // values are kept by reference
  }

  @Test
  void theManager_routesACachesKeysToTheNodeOfTheJarsType() {
    assertThat(manager.node("n1")).isInstanceOf(MemoryNode.class);
    TypedCache<Integer, String> users = manager.cache("users").typed(Integer.class, String.class);
    for (int i = 0; i < 200; i++) {
      users.put(i, "user " + i);
    }
    long onTheJarsNode = manager.node("n1").estimatedSize();
    assertThat(onTheJarsNode).isBetween(1L, 199L);
    assertThat(onTheJarsNode + manager.node("local-1").estimatedSize()).isEqualTo(200);
    for (int i = 0; i < 200; i++) {
      assertThat(users.getIfPresent(i)).isEqualTo("user " + i);
    }
  }

  @Test
  void theFactory_refusesWhatItsTypeDoesNotTake_whereItIsWritten() {
    ChashConfig withUri =
        ChashConfigs.parse(
            "nodes:\n  - id: n1\n    type: test-memory\n    uri: memory://x\n", "chash.yaml");
    assertThatThrownBy(() -> ShardedCaches.create(withUri))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chash.yaml:4:10: node \"n1\" is of type test-memory, which takes no uri");
  }
}
