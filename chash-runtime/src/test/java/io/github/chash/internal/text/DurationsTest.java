package io.github.chash.internal.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @Test
  void parse_eachUnit() {
    assertThat(Durations.parse("100ms")).isEqualTo(Duration.ofMillis(100));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
    assertThat(Durations.parse("0s")).isEqualTo(Duration.ZERO);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"10", "10 m", "1.5s", "-1s", "+1s", "PT10M", "10M", "10min", "s", "", "1w", " 1s"})
  void parse_otherForms_areRejectedNamingTheAcceptedForm(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "value must be a duration like 100ms, 30s, 10m, 2h or 1d, was " + Quotes.quote(text));
  }

  @Test
  void parse_overflow_isRejected() {
    assertThatThrownBy(() -> Durations.parse("999999999999999999d"))
        .hasMessage("value is too long, was \"999999999999999999d\"");
  }

  @Test
  void parse_withName_namesIt() {
    assertThatThrownBy(() -> Durations.parse("10", "ttl"))
        .hasMessage("ttl must be a duration like 100ms, 30s, 10m, 2h or 1d, was \"10\"");
  }

  @Test
  void format_roundTrips() {
    for (String text : new String[] {"100ms", "1500ms", "30s", "10m", "90m", "2h", "1d", "0ms"}) {
      assertThat(Durations.format(Durations.parse(text))).isEqualTo(text);
    }
    assertThat(Durations.format(Duration.ofSeconds(120))).isEqualTo("2m");
  }
}
