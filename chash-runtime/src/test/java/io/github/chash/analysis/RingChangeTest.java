package io.github.chash.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.List;
import org.junit.jupiter.api.Test;

class RingChangeTest {

  @Test
  void parse_idWithoutWeightHasWeightOne() {
    RingChange change = RingChange.parse("cache-4", null);
    assertThat(change.added()).containsExactly(Node.of("cache-4", 1));
    assertThat(change.removed()).isEmpty();
  }

  @Test
  void parse_weightAfterLastColon() {
    assertThat(RingChange.parse("cache-4:3", "").added()).containsExactly(Node.of("cache-4", 3));
    assertThat(RingChange.parse("10.0.0.9:6379:2", null).added())
        .containsExactly(Node.of("10.0.0.9:6379", 2));
  }

  @Test
  void parse_commaSeparatedLists() {
    RingChange change = RingChange.parse("a, b:2", "c,d");
    assertThat(change.added()).containsExactly(Node.of("a"), Node.of("b", 2));
    assertThat(change.removed()).containsExactly("c", "d");
    assertThat(change.describe()).isEqualTo("remove c, d; add a (weight 1), b (weight 2)");
  }

  @Test
  void parse_nonPositiveWeightIsRejected() {
    assertThatThrownBy(() -> RingChange.parse("a:0", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a positive integer");
    assertThatThrownBy(() -> RingChange.parse("a:-2", null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void parse_trailingColonIsAMissingWeightNotPartOfTheId() {
    assertThatThrownBy(() -> RingChange.parse("cache-5:", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "weight of added node \"cache-5:\" is missing after the last ':'; write ID or ID:WEIGHT");
  }

  @Test
  void parse_decimalWeightIsRejectedNotTakenAsPartOfTheId() {
    assertThatThrownBy(() -> RingChange.parse("cache-5:2.5", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("weight of added node \"cache-5:2.5\" must be a positive integer; was 2.5");
  }

  @Test
  void applyTo_removingEveryNodeIsRejected() {
    Ring ring = Rings.create(RingSettings.defaults(), List.of(Node.of("a"), Node.of("b")));
    RingChange change = RingChange.parse(null, "a,b");
    assertThatThrownBy(() -> change.applyTo(ring))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot remove a, b: no node would be left in the ring");
    assertThat(RingChange.parse("c", "a,b").applyTo(ring).nodes()).containsExactly(Node.of("c"));
  }

  @Test
  void isEmpty_blankSpecs() {
    assertThat(RingChange.parse(" ", null).isEmpty()).isTrue();
  }
}
