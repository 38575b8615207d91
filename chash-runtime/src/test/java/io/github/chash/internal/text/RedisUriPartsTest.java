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

  @Test
  void servers_cutsASentinelListAtEachComma() {
    RedisUriParts parts =
        RedisUriParts.split("redis-sentinel://:${env:PW}@s1:26379,${env:S2},[::1]:26380,s4/0#a");
    assertThat(parts.query()).isEqualTo("#a");
    assertThat(parts.password()).isEqualTo("${env:PW}");
    assertThat(parts.servers())
        .containsExactly(
            new RedisUriParts.HostPort("s1", "26379"),
            new RedisUriParts.HostPort("${env:S2}", null),
            new RedisUriParts.HostPort("[::1]", "26380"),
            new RedisUriParts.HostPort("s4", null));
    assertThat(RedisUriParts.split("redis-sentinel://[::1]:1,h:2").servers())
        .containsExactly(
            new RedisUriParts.HostPort("[::1]", "1"), new RedisUriParts.HostPort("h", "2"));
    assertThat(RedisUriParts.split("redis-sentinel://a,,b,").servers())
        .extracting(RedisUriParts.HostPort::host)
        .containsExactly("a", "", "b", "");
    assertThat(RedisUriParts.split("redis://h:1").servers())
        .containsExactly(new RedisUriParts.HostPort("h", "1"));
  }
}
