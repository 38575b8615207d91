package io.github.chash.aspect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.ShardedCacheManager;
import org.junit.jupiter.api.Test;

class ManagerLocatorTest {

  @Test
  void classPathManager_isBuiltOnceFromChashYaml() {
    ShardedCacheManager manager = ManagerLocator.classPathManager();
    assertThat(manager.cacheNames()).containsExactly("users", "orders");
    assertThat(manager.nodeStats()).containsOnlyKeys("yaml-a", "yaml-b");
    assertThat(ManagerLocator.classPathManager()).isSameAs(manager);
  }

  @Test
  void withoutManagerOrProvider_theAspectAndTheInterceptorFallBackToChashYaml() {
    ShardedCacheAspect.setManager(null);
    assertThat(ShardedCacheAspect.manager()).isSameAs(ManagerLocator.classPathManager());
    ShardedCacheInterceptor interceptor = new ShardedCacheInterceptor(() -> null);
    assertThat(interceptor.manager()).isSameAs(ManagerLocator.classPathManager());
  }
}
