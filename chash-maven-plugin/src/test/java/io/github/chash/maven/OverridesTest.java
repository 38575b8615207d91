package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Command-line overrides of the check block: a typo names the property and the value. */
class OverridesTest {

  @Test
  void maxSkew_notANumber_namesPropertyAndValueInsteadOfMavensConversionError() {
    assertThatThrownBy(() -> Overrides.maxSkew("abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chash.maxSkew must be a number, was \"abc\"");
  }

  @Test
  void maxSkew_belowOne_isRejectedAsInChashYaml() {
    assertThatThrownBy(() -> Overrides.maxSkew("0.5"))
        .hasMessage(
            "chash.maxSkew must be at least 1.0 (a node's share / its fair share), was 0.5");
    assertThatThrownBy(() -> Overrides.maxSkew("NaN"))
        .hasMessage("chash.maxSkew must be a number, was \"NaN\"");
    assertThat(Overrides.maxSkew("1.15")).isEqualTo(1.15);
    assertThat(Overrides.maxSkew(null)).isNull();
    assertThat(Overrides.maxSkew(" ")).isNull();
  }

  @Test
  void sampleKeys_zeroIsRejectedSoACheckNeverRunsOnExactSharesAloneByMistake() {
    assertThatThrownBy(() -> Overrides.sampleKeys("0"))
        .hasMessage("chash.sampleKeys must be an integer between 1 and 100000000, was 0");
    assertThatThrownBy(() -> Overrides.sampleKeys("1x"))
        .hasMessage("chash.sampleKeys must be a whole number, was \"1x\"");
    assertThatThrownBy(() -> Overrides.sampleKeys("2000000000"))
        .hasMessage("chash.sampleKeys must be an integer between 1 and 100000000, was 2000000000");
    assertThat(Overrides.sampleKeys("20000")).isEqualTo(20000);
  }

  @Test
  void maxMovedAndOverIdeal_badValuesNamePropertyAndValue() {
    assertThatThrownBy(() -> Overrides.maxMoved("15%"))
        .hasMessage("chash.maxMoved must be a number, was \"15%\"");
    assertThatThrownBy(() -> Overrides.maxMoved("0"))
        .hasMessage("chash.maxMoved must be a fraction in (0, 1], was 0");
    assertThatThrownBy(() -> Overrides.maxMovedOverIdeal("0.9"))
        .hasMessage(
            "chash.maxMovedOverIdeal must be at least 1.0 (moved keys / the ideal minimum), was 0.9");
    assertThat(Overrides.maxMoved("0.15")).isEqualTo(0.15);
    assertThat(Overrides.maxMovedOverIdeal("1.5")).isEqualTo(1.5);
  }

  @Test
  void keyPattern_withoutPlaceholderIsRejectedAsInChashYaml() {
    assertThatThrownBy(() -> Overrides.keyPattern("users"))
        .hasMessage("chash.keyPattern must contain {n}, was \"users\"");
    assertThatThrownBy(() -> Overrides.keyPattern(""))
        .hasMessage("chash.keyPattern must contain {n}, was \"\"");
    assertThat(Overrides.keyPattern("users:{n}")).isEqualTo("users:{n}");
  }
}
