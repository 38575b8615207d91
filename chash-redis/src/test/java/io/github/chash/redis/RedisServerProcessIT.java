package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

class RedisServerProcessIT {

  @Test
  void start_answersOnLoopbackFreePort() {
    try (RedisServerProcess server = RedisServerProcess.start()) {
      assertThat(server.port()).isNotEqualTo(6379);
      assertThat(server.command("PING")).isEqualTo("PONG");
      assertThat(server.command("CONFIG", "GET", "bind"))
          .asInstanceOf(InstanceOfAssertFactories.LIST)
          .contains("127.0.0.1");
      assertThat(server.command("CONFIG", "GET", "save"))
          .asInstanceOf(InstanceOfAssertFactories.LIST)
          .containsExactly("save", "");
    }
  }

  @Test
  void killAndRestart_samePortEmptyData() {
    try (RedisServerProcess server = RedisServerProcess.start()) {
      server.command("SET", "k", "v");
      int port = server.port();
      server.kill();
      assertThat(server.isRunning()).isFalse();
      assertThatThrownBy(() -> server.command("PING")).isInstanceOf(RuntimeException.class);
      server.restart();
      assertThat(server.port()).isEqualTo(port);
      assertThat(server.command("GET", "k")).isNull();
    }
  }

  @Test
  void requirepass_refusesWithoutAuth() {
    try (RedisServerProcess server = RedisServerProcess.start("s3cret-pass")) {
      assertThat(server.command("PING")).isEqualTo("PONG");
      assertThat(server.command("CONFIG", "GET", "requirepass"))
          .asInstanceOf(InstanceOfAssertFactories.LIST)
          .contains("s3cret-pass");
    }
  }

  @Test
  void keys_listsByPattern() {
    try (RedisServerProcess server = RedisServerProcess.start()) {
      server.command("SET", "chash:a", "1");
      server.command("SET", "chash:b", "2");
      server.command("SET", "other", "3");
      assertThat(server.keys("chash:*")).containsExactlyInAnyOrder("chash:a", "chash:b");
    }
  }
}
