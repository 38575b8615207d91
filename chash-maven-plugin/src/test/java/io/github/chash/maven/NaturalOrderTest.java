package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NaturalOrderTest {

  @Test
  void compare_numbersByValue() {
    List<String> ids =
        new ArrayList<>(
            List.of(
                "cache-100",
                "cache-10",
                "cache-2",
                "cache-1",
                "cache-0",
                "10.0.0.10:6379",
                "10.0.0.9:6379",
                "b",
                "a10b",
                "a9b",
                "a",
                "cache-02"));
    ids.sort(NaturalOrder.INSTANCE);
    assertThat(ids)
        .containsExactly(
            "10.0.0.9:6379",
            "10.0.0.10:6379",
            "a",
            "a9b",
            "a10b",
            "b",
            "cache-0",
            "cache-1",
            "cache-02",
            "cache-2",
            "cache-10",
            "cache-100");
  }

  @Test
  void compare_isATotalOrderConsistentWithEquals() {
    Random random = new Random(3);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = random.nextInt(5); k >= 0; k--) {
        b.append(random.nextBoolean() ? "0" + random.nextInt(20) : "ab".charAt(random.nextInt(2)));
      }
      ids.add(b.toString());
    }
    for (String a : ids) {
      for (String b : ids) {
        int ab = Integer.signum(NaturalOrder.INSTANCE.compare(a, b));
        assertThat(ab).isEqualTo(-Integer.signum(NaturalOrder.INSTANCE.compare(b, a)));
        assertThat(ab == 0).isEqualTo(a.equals(b));
      }
    }
    List<String> sorted = new ArrayList<>(ids);
    sorted.sort(NaturalOrder.INSTANCE);
    Collections.shuffle(ids, random);
    ids.sort(NaturalOrder.INSTANCE);
    assertThat(ids).isEqualTo(sorted);
  }
}
