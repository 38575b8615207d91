package io.github.chash.internal.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PlaceholdersTest {
  private static final Map<String, String> ENV = Map.of("PW", "s3cr$t\\1", "HOST", "cache-1");

  @Test
  void resolve_replacesEveryPlaceholder() {
    assertThat(Placeholders.resolve("redis://default:${env:PW}@${env:HOST}:6380", ENV::get))
        .isEqualTo("redis://default:s3cr$t\\1@cache-1:6380");
    assertThat(Placeholders.resolve("no placeholders", ENV::get)).isEqualTo("no placeholders");
  }

  @Test
  void resolve_unsetVariable_namesItButNoSecret() {
    assertThatThrownBy(() -> Placeholders.resolve("redis://${env:PW}@${env:MISSING_1}", ENV::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("environment variable MISSING_1 is not set (referenced as ${env:MISSING_1})")
        .message()
        .doesNotContain("s3cr");
  }

  @Test
  void resolve_malformedPlaceholder_givesIndexNotText() {
    assertThatThrownBy(() -> Placeholders.resolve("redis://hunter2:${env:PW", ENV::get))
        .hasMessage("malformed placeholder at index 16; use ${env:NAME}");
    assertThatThrownBy(() -> Placeholders.resolve("${ENV:PW}", ENV::get))
        .hasMessage("malformed placeholder at index 0; use ${env:NAME}");
    assertThatThrownBy(() -> Placeholders.resolve("${env:1X}", ENV::get))
        .hasMessage("malformed placeholder at index 0; use ${env:NAME}");
  }

  @Test
  void isPlaceholder_onlyTheWholeText() {
    assertThat(Placeholders.isPlaceholder("${env:PW}")).isTrue();
    assertThat(Placeholders.isPlaceholder("x${env:PW}")).isFalse();
    assertThat(Placeholders.isPlaceholder(null)).isFalse();
    assertThat(Placeholders.containsPlaceholder("x${env:PW}")).isTrue();
    assertThat(Placeholders.containsPlaceholder("x${env:}")).isFalse();
  }
}
