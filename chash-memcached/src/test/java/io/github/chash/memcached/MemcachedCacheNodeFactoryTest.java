package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import org.junit.jupiter.api.Test;

/** The per-cache settings memcached nodes refuse, each with where it was written. */
class MemcachedCacheNodeFactoryTest {

  private static void refused(String cache, String message) {
    ChashConfig parsed =
        ChashConfigs.parse(
            "nodes:\n  - { id: m1, type: memcached, uri: \"memcached://127.0.0.1:1\" }\n"
                + "caches:\n  "
                + cache
                + "\n",
            "chash.yaml");
    assertThatThrownBy(() -> new MemcachedCacheNodeFactory().create(parsed.nodes().get(0), parsed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void create_verbatimCacheWithoutAPeerCodec_refused() {
    refused(
        "users: { ttl: 1h, keys: verbatim }",
        "chash.yaml:4:27: caches.users is verbatim on memcached nodes (node \"m1\"), which needs"
            + " codec spymemcached or xmemcached (the item format the old clients read); was"
            + " none");
    refused(
        "users: { ttl: 1h, keys: verbatim, codec: string }",
        "chash.yaml:4:44: caches.users is verbatim on memcached nodes (node \"m1\"), which needs"
            + " codec spymemcached or xmemcached (the item format the old clients read); was"
            + " string");
  }

  @Test
  void create_prefixedCacheWithACodecOfItsOwn_refused() {
    refused(
        "users: { ttl: 1h, codec: spymemcached }",
        "chash.yaml:4:28: caches.users.codec is spymemcached, but on memcached nodes (node"
            + " \"m1\") a cache has a codec of its own only with keys: verbatim");
  }
}
