package io.github.chash.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyExpressionParserTest {

  /** Records the callbacks as "kind:value@start". */
  private static class Recorder implements KeyExpressionParser.Listener {
    final List<String> parts = new ArrayList<>();

    @Override
    public void literal(String value, int start) {
      parts.add("literal:" + value + "@" + start);
    }

    @Override
    public void parameter(String name, int start) {
      parts.add("parameter:" + name + "@" + start);
    }

    @Override
    public void property(String name, int start) {
      parts.add("property:" + name + "@" + start);
    }

    @Override
    public IllegalArgumentException error(int start, String message) {
      return new IllegalArgumentException(start + ": " + message);
    }
  }

  private static List<String> parse(String text) {
    Recorder recorder = new Recorder();
    KeyExpressionParser.parse(text, recorder);
    return recorder.parts;
  }

  @Test
  void parse_partsInOrderWithPositions() {
    assertThat(parse(" #customer.address.city + 'it''s' +#p1"))
        .containsExactly(
            "parameter:customer@1",
            "property:address@11",
            "property:city@19",
            "literal:it's@26",
            "parameter:p1@35");
  }

  @Test
  void parse_singleTerms() {
    assertThat(parse("#id")).containsExactly("parameter:id@0");
    assertThat(parse("''")).containsExactly("literal:@0");
  }

  @Test
  void parse_syntaxErrorsAtTheirPosition() {
    assertThatThrownBy(() -> parse("#id +"))
        .hasMessage("5: expected '#parameter' or a quoted literal, found the end");
    assertThatThrownBy(() -> parse("#id #year"))
        .hasMessage("4: expected '+' or the end, found '#'");
    assertThatThrownBy(() -> parse("'abc")).hasMessage("0: unterminated literal; close it with '");
    assertThatThrownBy(() -> parse("id"))
        .hasMessage("0: expected '#parameter' or a quoted literal, found 'i'");
    assertThatThrownBy(() -> parse("#customer."))
        .hasMessage("10: expected a property name after '.', found the end");
    assertThatThrownBy(() -> parse("#1"))
        .hasMessage("1: expected a parameter name after '#', found '1'");
    assertThatThrownBy(() -> parse("   "))
        .hasMessage("3: expected '#parameter' or a quoted literal, found the end");
  }

  @Test
  void parse_callbackErrorStopsBeforeLaterParts() {
    List<String> seen = new ArrayList<>();
    KeyExpressionParser.Listener failing =
        new Recorder() {
          @Override
          public void parameter(String name, int start) {
            seen.add(name);
            throw new IllegalStateException("no parameter " + name);
          }
        };
    assertThatThrownBy(() -> KeyExpressionParser.parse("#a + #b", failing))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("no parameter a");
    assertThat(seen).containsExactly("a");
  }
}
