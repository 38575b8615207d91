package io.github.chash.it.redisonly;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Redis user's application on real servers, as named modules on the module path. */
class ProfilesTest {

  @Test
  void profiles_roundTripThroughRedisNodes_foundOnTheModulePath() throws Exception {
    try (RedisProcess a = RedisProcess.start();
        RedisProcess b = RedisProcess.start();
        Profiles profiles = new Profiles(List.of(a.port(), b.port()))) {
      for (long id = 1; id <= 200; id++) {
        profiles.put(id, "name " + id);
      }
      for (long id = 1; id <= 200; id++) {
        assertThat(profiles.name(id)).isEqualTo("name " + id);
      }
      assertThat(profiles.manager().cacheStats().get("profiles").hitCount()).isEqualTo(200);

      CacheNode node = profiles.manager().node("r1");
      assertThat(node.getClass().getName()).isEqualTo("io.github.chash.redis.RedisCacheNode");
      assertThat(node.getClass().getModule().getName()).isEqualTo("io.github.chash.redis");
      assertThat(Profiles.class.getModule().getName()).isEqualTo("io.github.chash.it.redisonly");
    }
  }
}
