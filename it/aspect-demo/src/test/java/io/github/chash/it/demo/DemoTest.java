package io.github.chash.it.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DemoTest {

  @Test
  void run_printsARowPerShardAndCountsEveryFindAsAHitOrAMiss() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Demo.run(20_000, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();

    assertThat(lines).anyMatch(l -> l.startsWith("shard ") && l.contains("expected share"));
    for (String shard : List.of("shard-a", "shard-b", "shard-c", "shard-d")) {
      assertThat(lines).anyMatch(l -> l.startsWith(shard + " "));
    }
    String total = lines.stream().filter(l -> l.startsWith("total ")).findFirst().orElseThrow();
    String[] cells = total.trim().split("\\s+");
    assertThat(cells[1]).isEqualTo("100.0%");
    long hits = Long.parseLong(cells[3].replace(",", ""));
    long misses = Long.parseLong(cells[4].replace(",", ""));
    // 20,000 calls, one in 50 a rename: every find is one hit or one miss, never two.
    assertThat(hits + misses).isEqualTo(20_000 - 20_000 / Demo.RENAME_EVERY);
    assertThat(hits).isGreaterThan(misses);
    assertThat(lines)
        .anyMatch(
            l -> l.startsWith("the method body ran " + String.format("%,d", misses) + " times"));
  }

  @Test
  void zipf_favoursLowRanks() {
    Demo.Zipf zipf = new Demo.Zipf(1000, 1.0, new SplittableRandom(1));
    int ones = 0;
    int tail = 0;
    for (int i = 0; i < 100_000; i++) {
      int r = zipf.next();
      assertThat(r).isBetween(1, 1000);
      if (r == 1) {
        ones++;
      } else if (r > 500) {
        tail++;
      }
    }
    // P(1) = 1/H(1000) ~ 0.134; P(rank > 500) ~ ln(2)/H(1000) ~ 0.093.
    assertThat(ones).isBetween(12_400, 14_400);
    assertThat(tail).isBetween(8_300, 10_300);
  }
}
