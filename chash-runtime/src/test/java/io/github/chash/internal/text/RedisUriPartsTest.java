package io.github.chash.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisUriPartsTest {

  @Test
  void split_allParts() {
    assertThat(RedisUriParts.split("rediss://app:${env:PW}@cache-1:6380/2?timeout=1s"))
        .isEqualTo(
            new RedisUriParts(
                "rediss",
                "?timeout=1s",
                "app:${env:PW}",
                "app",
                "${env:PW}",
                "cache-1",
                "6380",
                "2"));
  }

  @Test
  void split_defaultsAbsentParts() {
    assertThat(RedisUriParts.split("redis://h"))
        .isEqualTo(new RedisUriParts("redis", null, null, "", "", "h", null, ""));
  }

  @Test
  void split_ignoresSeparatorsInsidePlaceholders() {
    assertThat(RedisUriParts.split("redis://${env:U}:${env:P}@${env:HOST}:${env:PORT}/${env:DB}"))
        .isEqualTo(
            new RedisUriParts(
                "redis",
                null,
                "${env:U}:${env:P}",
                "${env:U}",
                "${env:P}",
                "${env:HOST}",
                "${env:PORT}",
                "${env:DB}"));
  }

  @Test
  void split_loneUserInfoIsThePassword() {
    RedisUriParts parts = RedisUriParts.split("redis://secret@h");
    assertThat(parts.user()).isEmpty();
    assertThat(parts.password()).isEqualTo("secret");
  }

  @Test
  void split_ipv6() {
    assertThat(RedisUriParts.split("redis://[::1]:6390/1").host()).isEqualTo("[::1]");
    assertThat(RedisUriParts.split("redis://[::1]:6390/1").port()).isEqualTo("6390");
    assertThat(RedisUriParts.split("redis://[::1").host()).isEqualTo("[::1");
    assertThat(RedisUriParts.split("redis://[::1]x:1").host()).isEqualTo("[::1]x:1");
    assertThat(RedisUriParts.split("redis://[::1]x:1").port()).isNull();
  }
}
