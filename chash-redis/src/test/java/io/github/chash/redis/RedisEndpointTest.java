package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RedisEndpointTest {
  private static final String SECRET = "p@ss:w/rd-7319";
  private static final Function<String, String> ENV =
      Map.of(
              "REDIS_PASSWORD",
              SECRET,
              "REDIS_USER",
              "app",
              "REDIS_HOST",
              "cache-1.internal",
              "MASTER",
              "shard-b")
          ::get;

  @Test
  void parse_hostPortDatabase() {
    RedisEndpoint e = RedisEndpoint.parse("n", "redis://127.0.0.1:6380/2", ENV);
    assertThat(e.ssl()).isFalse();
    assertThat(e.host()).isEqualTo("127.0.0.1");
    assertThat(e.port()).isEqualTo(6380);
    assertThat(e.database()).isEqualTo(2);
    assertThat(e.user()).isNull();
    assertThat(e.password()).isNull();
    assertThat(e).hasToString("redis://127.0.0.1:6380/2");
  }

  @Test
  void parse_defaultsPortAndDatabase() {
    RedisEndpoint e = RedisEndpoint.parse("n", "rediss://cache-1", ENV);
    assertThat(e.ssl()).isTrue();
    assertThat(e.port()).isEqualTo(6379);
    assertThat(e.database()).isZero();
    assertThat(e).hasToString("rediss://cache-1:6379/0");
  }

  @Test
  void parse_passwordFromEnvironment_keepsSpecialCharactersVerbatim() {
    RedisEndpoint e =
        RedisEndpoint.parse("n", "redis://:${env:REDIS_PASSWORD}@127.0.0.1:6380/0", ENV);
    assertThat(e.user()).isNull();
    assertThat(new String(e.password())).isEqualTo(SECRET);
  }

  @Test
  void parse_userAndPasswordFromEnvironment() {
    RedisEndpoint e =
        RedisEndpoint.parse(
            "n", "redis://${env:REDIS_USER}:${env:REDIS_PASSWORD}@${env:REDIS_HOST}", ENV);
    assertThat(e.user()).isEqualTo("app");
    assertThat(new String(e.password())).isEqualTo(SECRET);
    assertThat(e.host()).isEqualTo("cache-1.internal");
  }

  @Test
  void toString_masksCredentials() {
    RedisEndpoint e =
        RedisEndpoint.parse("n", "redis://app:${env:REDIS_PASSWORD}@127.0.0.1:6380/0", ENV);
    assertThat(e).hasToString("redis://***@127.0.0.1:6380/0");
    assertThat(e.toString()).doesNotContain(SECRET).doesNotContain("app");
  }

  @Test
  void parse_ipv6Host() {
    RedisEndpoint e = RedisEndpoint.parse("n", "redis://[::1]:6390/1", ENV);
    assertThat(e.host()).isEqualTo("::1");
    assertThat(e).hasToString("redis://[::1]:6390/1");
  }

  @Test
  void parse_plainTextPassword_isRefusedWithoutEchoingIt() {
    assertThatThrownBy(() -> RedisEndpoint.parse("cache-1", "redis://:hunter2@127.0.0.1:6380", ENV))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node \"cache-1\"")
        .hasMessageContaining("plain-text password")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void parse_unsetVariable_namesItWithoutValues() {
    assertThatThrownBy(() -> RedisEndpoint.parse("cache-1", "redis://:${env:MISSING_PW}@h:1", ENV))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "node \"cache-1\": environment variable MISSING_PW is not set (referenced as"
                + " ${env:MISSING_PW}) in its uri");
  }

  @Test
  void parse_wrongScheme() {
    assertThatThrownBy(() -> RedisEndpoint.parse("cache-1", "http://h:1", ENV))
        .hasMessage(
            "node \"cache-1\": uri must start with redis://, rediss:// or redis-sentinel://; was"
                + " \"http://h:1\"");
  }

  @Test
  void parse_badPortAndDatabase() {
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://h:70000", ENV))
        .hasMessageContaining("port must be between 1 and 65535, was 70000");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://h:12/x", ENV))
        .hasMessageContaining("database must be a non-negative integer, was \"x\"");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://:1", ENV))
        .hasMessageContaining("has no host");
  }

  @Test
  void parse_queryAndBadIpv6Refused() {
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://h:1/0?timeout=1s", ENV))
        .hasMessage(
            "node \"c\": uri must not have a query or fragment; was \"redis://h:1/0?timeout=1s\"");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://[::1", ENV))
        .hasMessageContaining("has an unclosed IPv6 host");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://[::1]x", ENV))
        .hasMessageContaining("has an invalid host");
  }

  @Test
  void parse_malformedPlaceholder() {
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://:${env:BAD-NAME}@h", ENV))
        .hasMessage("node \"c\": uri contains a malformed placeholder; use ${env:NAME}");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis://${env:X@h", ENV))
        .hasMessageContaining("malformed placeholder");
  }

  @Test
  void redact_masksUserInfoOnly() {
    assertThat(RedisEndpoint.redact("redis://u:pw@h:1/0")).isEqualTo("redis://***@h:1/0");
    assertThat(RedisEndpoint.redact("redis://h:1/0")).isEqualTo("redis://h:1/0");
  }

  @Test
  void parse_sentinelShard_listsItsSentinelsAndMaster() {
    RedisEndpoint e =
        RedisEndpoint.parse(
            "n",
            "redis-sentinel://:${env:REDIS_PASSWORD}@127.0.0.1:26380,${env:REDIS_HOST},[::1]:26381"
                + "/3#shard-a",
            ENV);
    assertThat(e.isSentinel()).isTrue();
    assertThat(e.masterName()).isEqualTo("shard-a");
    assertThat(e.sentinels())
        .containsExactly(
            new RedisEndpoint.Sentinel("127.0.0.1", 26380),
            new RedisEndpoint.Sentinel("cache-1.internal", 26379),
            new RedisEndpoint.Sentinel("::1", 26381));
    assertThat(e.database()).isEqualTo(3);
    assertThat(new String(e.password())).isEqualTo(SECRET);
    assertThat(e)
        .hasToString(
            "redis-sentinel://***@127.0.0.1:26380,cache-1.internal:26379,[::1]:26381/3#shard-a");
    assertThat(RedisEndpoint.parse("n", "redis-sentinel://s1#${env:MASTER}", ENV).masterName())
        .isEqualTo("shard-b");
    assertThat(RedisEndpoint.parse("n", "redis://h", ENV).isSentinel()).isFalse();
  }

  @Test
  void parse_badSentinelShards_sayWhy() {
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis-sentinel://s1,s2/0", ENV))
        .hasMessage(
            "node \"c\": uri must name the Sentinel master after '#'; was"
                + " \"redis-sentinel://s1,s2/0\"");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis-sentinel://s1,,s2#m", ENV))
        .hasMessageContaining("has no host");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis-sentinel://s1,s1:26379#m", ENV))
        .hasMessageContaining("lists sentinel s1:26379 twice");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis-sentinel://s1#a b", ENV))
        .hasMessageContaining("invalid Sentinel master name \"a b\"");
    assertThatThrownBy(() -> RedisEndpoint.parse("c", "redis-sentinel://:hunter2@s1#m", ENV))
        .hasMessageContaining("plain-text password")
        .message()
        .doesNotContain("hunter2");
  }
}
