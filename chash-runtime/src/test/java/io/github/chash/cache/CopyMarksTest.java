package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A write's landing forgets only the mark its key had when it was sent: a write of the same key
 * that failed after it was sent may have left this one's older value on the node (protocol
 * simulation seed 1702744993: a bulk put sent before a refused put landed after it, forgot the
 * refused put's mark, and the node's older value was read).
 */
class CopyMarksTest {
  private final CopyMarks marks = new CopyMarks(new AtomicInteger(), 100);

  @Test
  void aWriteSentBeforeAFailure_keepsTheFailuresMarkWhenItLands() {
    CopyMarks.Mark sent = marks.current("k"); // none yet
    assertThat(marks.unknown("k")).isTrue(); // a later write of k fails
    marks.forget("k", sent); // the first write lands

    assertThat(marks.get("k")).isNotNull();
    assertThat(marks.get("k").isUnknown()).isTrue();
  }

  @Test
  void aWriteSentAfterAFailure_forgetsItsMarkWhenItLands() {
    assertThat(marks.unknown("k")).isTrue();
    CopyMarks.Mark sent = marks.current("k");
    marks.forget("k", sent);

    assertThat(marks.get("k")).isNull();
    assertThat(marks.isEmpty()).isTrue();
  }

  @Test
  void anOffHomeWrite_isVouchedForUnlessAFailureMarkedItSince() {
    assertThat(marks.beginOffHomeWrite("k")).isTrue();
    CopyMarks.Mark sent = marks.current("k");
    marks.written("k", 7, sent);
    assertThat(marks.get("k").trustedSince(7)).isTrue();

    assertThat(marks.beginOffHomeWrite("j")).isTrue();
    CopyMarks.Mark sentJ = marks.current("j");
    assertThat(marks.unknown("j")).isTrue(); // a later write of j fails
    marks.written("j", 7, sentJ);
    assertThat(marks.get("j").isUnknown()).isTrue();
  }
}
