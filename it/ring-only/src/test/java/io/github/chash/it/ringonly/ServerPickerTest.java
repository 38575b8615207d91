package io.github.chash.it.ringonly;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.Ring;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerPickerTest {
  private static final List<String> FOUR =
      List.of("10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211", "10.0.0.4:11211");

  @Test
  void theRingAlone_runsAsANamedModule_withoutTheCache() {
    assertThat(Ring.class.getModule().getName()).isEqualTo("io.github.chash.ring");
    assertThat(ServerPicker.class.getModule().getName()).isEqualTo("io.github.chash.it.ringonly");
    assertThat(ModuleLayer.boot().findModule("io.github.chash.runtime")).isEmpty();
    assertThat(ServerPicker.class.getClassLoader().getResource("io/github/chash/cache/"))
        .as("the cache is not on the path")
        .isNull();
  }

  @Test
  void removingAServer_movesOnlyItsKeys() {
    ServerPicker four = new ServerPicker(FOUR);
    ServerPicker three = new ServerPicker(FOUR.subList(0, 3));
    Map<String, Integer> perServer = new HashMap<>();
    int moved = 0;
    for (int i = 0; i < 10_000; i++) {
      String key = "user:" + i;
      String before = four.serverOf(key);
      perServer.merge(before, 1, Integer::sum);
      if (!before.equals(FOUR.get(3))) {
        assertThat(three.serverOf(key)).as(key).isEqualTo(before);
      } else {
        moved++;
      }
    }
    assertThat(perServer).containsOnlyKeys(FOUR);
    assertThat(perServer.values()).allSatisfy(n -> assertThat(n).isBetween(1_800, 3_200));
    assertThat(moved).isEqualTo(perServer.get(FOUR.get(3)));
  }
}
