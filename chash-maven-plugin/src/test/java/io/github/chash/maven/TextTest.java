package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextTest {

  @Test
  void fixed_printsAsFormatDoes() {
    Random random = new Random(1);
    for (int i = 0; i < 100_000; i++) {
      double v = (random.nextDouble() - 0.2) * Math.pow(10, random.nextInt(7) - 3);
      int decimals = random.nextInt(6);
      assertThat(Text.fixed(v, decimals))
          .as("%s with %d decimals", v, decimals)
          .isEqualTo(String.format(Locale.ROOT, "%." + decimals + "f", v));
    }
    assertThat(Text.fixed(0.0004, 2)).isEqualTo("0.00");
    assertThat(Text.fixed(-0.0004, 2)).isEqualTo(String.format(Locale.ROOT, "%.2f", -0.0004));
  }

  @Test
  void numbersHaveThousandsSeparators_sharesAPercentSign() {
    assertThat(Text.number(1_000_000)).isEqualTo("1,000,000");
    assertThat(Text.count(1, "node")).isEqualTo("1 node");
    assertThat(Text.count(10_000, "node")).isEqualTo("10,000 nodes");
    assertThat(Text.percent(0.000500123, 4)).isEqualTo("0.0500%");
    assertThat(Text.percent(Double.NaN, 2)).isEqualTo("n/a");
  }
}
