package io.github.chash.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.keys.Expression.And;
import io.github.chash.internal.keys.Expression.Bool;
import io.github.chash.internal.keys.Expression.Comparison;
import io.github.chash.internal.keys.Expression.Concat;
import io.github.chash.internal.keys.Expression.Not;
import io.github.chash.internal.keys.Expression.Null;
import io.github.chash.internal.keys.Expression.Numeral;
import io.github.chash.internal.keys.Expression.Or;
import io.github.chash.internal.keys.Expression.Property;
import io.github.chash.internal.keys.Expression.Reference;
import io.github.chash.internal.keys.Expression.Text;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ExpressionParserTest {

  /** The tree in prefix form, with each node's start: {@code (and@0 #a@0 #b@8)}. */
  static String render(Expression e) {
    if (e instanceof Text t) {
      return "'" + t.value() + "'@" + t.start();
    }
    if (e instanceof Numeral n) {
      return n.value().toPlainString() + "@" + n.start();
    }
    if (e instanceof Bool b) {
      return b.value() + "@" + b.start();
    }
    if (e instanceof Null n) {
      return "null@" + n.start();
    }
    if (e instanceof Reference r) {
      return "#"
          + r.name()
          + "@"
          + r.start()
          + r.properties().stream()
              .map(p -> "." + p.name() + "@" + p.start())
              .collect(Collectors.joining());
    }
    if (e instanceof Concat c) {
      return "(+ "
          + c.parts().stream().map(ExpressionParserTest::render).collect(Collectors.joining(" "))
          + ")";
    }
    if (e instanceof Comparison c) {
      return "("
          + c.operator().symbol()
          + "@"
          + c.start()
          + " "
          + render(c.left())
          + " "
          + render(c.right())
          + ")";
    }
    if (e instanceof And a) {
      return "(and " + render(a.left()) + " " + render(a.right()) + ")";
    }
    if (e instanceof Or o) {
      return "(or " + render(o.left()) + " " + render(o.right()) + ")";
    }
    Not n = (Not) e;
    return "(not@" + n.start() + " " + render(n.operand()) + ")";
  }

  private static String key(String text) {
    return render(ExpressionParser.key(text));
  }

  private static String condition(String text) {
    return render(ExpressionParser.condition(text));
  }

  @Test
  void key_partsInOrderWithPositions() {
    assertThat(key(" #customer.address.city + 'it''s' +#p1"))
        .isEqualTo("(+ #customer@1.address@11.city@19 'it's'@26 #p1@35)");
    assertThat(key("#id")).isEqualTo("#id@0");
    assertThat(key("''")).isEqualTo("''@0");
  }

  @Test
  void key_syntaxErrorsAtTheirPosition() {
    assertThatThrownBy(() -> ExpressionParser.key("#id +"))
        .isInstanceOf(ExpressionException.class)
        .hasMessage("at position 6: expected '#parameter' or a quoted literal, found the end");
    assertThatThrownBy(() -> ExpressionParser.key("#id #year"))
        .hasMessage("at position 5: expected '+' or the end, found '#'");
    assertThatThrownBy(() -> ExpressionParser.key("'abc"))
        .hasMessage("at position 1: unterminated literal; close it with '");
    assertThatThrownBy(() -> ExpressionParser.key("id"))
        .hasMessage("at position 1: expected '#parameter' or a quoted literal, found 'i'");
    assertThatThrownBy(() -> ExpressionParser.key("#customer."))
        .hasMessage("at position 11: expected a property name after '.', found the end");
    assertThatThrownBy(() -> ExpressionParser.key("#1"))
        .hasMessage("at position 2: expected a parameter name after '#', found '1'");
    assertThatThrownBy(() -> ExpressionParser.key("   "))
        .hasMessage("at position 4: expected '#parameter' or a quoted literal, found the end");
    // keys have no comparisons or numbers: a condition belongs in condition
    assertThatThrownBy(() -> ExpressionParser.key("#id == 1"))
        .hasMessage("at position 5: expected '+' or the end, found '='");
  }

  @Test
  void key_exceptionCarriesPositionAndReason() {
    ExpressionException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExpressionException.class, () -> ExpressionParser.key("#a + "));
    assertThat(e.position()).isEqualTo(5);
    assertThat(e.reason()).isEqualTo("expected '#parameter' or a quoted literal, found the end");
  }

  @Test
  void condition_comparisonsOfEveryOperandKind() {
    assertThat(condition("#user.age >= 18")).isEqualTo("(>=@10 #user@0.age@6 18@13)");
    assertThat(condition("#name != null")).isEqualTo("(!=@6 #name@0 null@9)");
    assertThat(condition("#a == 'x'")).isEqualTo("(==@3 #a@0 'x'@6)");
    assertThat(condition("#a<-1.50")).isEqualTo("(<@2 #a@0 -1.50@3)");
    assertThat(condition("#a > #b")).isEqualTo("(>@3 #a@0 #b@5)");
    assertThat(condition("#a <= 0")).isEqualTo("(<=@3 #a@0 0@6)");
    assertThat(condition("#flag == true")).isEqualTo("(==@6 #flag@0 true@9)");
  }

  @Test
  void condition_precedenceNotBeforeAndBeforeOr() {
    assertThat(condition("#a or #b and not #c")).isEqualTo("(or #a@0 (and #b@6 (not@13 #c@17)))");
    assertThat(condition("(#a or #b) and #c")).isEqualTo("(and (or #a@1 #b@7) #c@15)");
    assertThat(condition("not not #a")).isEqualTo("(not@0 (not@4 #a@8))");
    assertThat(condition("#a and #b and #c")).isEqualTo("(and (and #a@0 #b@7) #c@14)");
    assertThat(condition("true")).isEqualTo("true@0");
    assertThat(condition("#active")).isEqualTo("#active@0");
  }

  @Test
  void condition_keywordsAreWholeWords() {
    // "order" starts with "or", "nothing" with "not": neither is a keyword there
    assertThatThrownBy(() -> ExpressionParser.condition("#a order"))
        .hasMessage("at position 4: expected 'and', 'or' or the end, found 'o'");
    assertThatThrownBy(() -> ExpressionParser.condition("nothing"))
        .hasMessage(
            "at position 1: expected a value ('#name', a quoted literal, a number, true, false,"
                + " null or '('), found 'nothing'; write #nothing for a parameter");
  }

  @Test
  void condition_syntaxErrorsSayWhatToWrite() {
    assertThatThrownBy(() -> ExpressionParser.condition("#a && #b"))
        .hasMessage("at position 4: found '&&'; write and");
    assertThatThrownBy(() -> ExpressionParser.condition("#a || #b"))
        .hasMessage("at position 4: found '||'; write or");
    assertThatThrownBy(() -> ExpressionParser.condition("!#a"))
        .hasMessageEndingWith("found '!'; write not");
    assertThatThrownBy(() -> ExpressionParser.condition("#a = 1"))
        .hasMessage("at position 4: found '='; write == to compare");
    assertThatThrownBy(() -> ExpressionParser.condition("(#a == 1"))
        .hasMessage("at position 9: expected ')' to close the '(' at position 1, found the end");
    assertThatThrownBy(() -> ExpressionParser.condition("#a == "))
        .hasMessageStartingWith("at position 7: expected a value")
        .hasMessageEndingWith("found the end");
    assertThatThrownBy(() -> ExpressionParser.condition("#a < 1 < 2"))
        .hasMessage("at position 8: expected 'and', 'or' or the end, found '<'");
    assertThatThrownBy(() -> ExpressionParser.condition("#a.m()"))
        .hasMessage("at position 5: expected 'and', 'or' or the end, found '('");
  }

  @Test
  void condition_literalsWhereATruthValueBelongsAreErrors() {
    assertThatThrownBy(() -> ExpressionParser.condition("'yes'"))
        .hasMessage(
            "at position 1: expected a condition (a comparison, and, or, not, true, false or a"
                + " #reference), found a quoted literal");
    assertThatThrownBy(() -> ExpressionParser.condition("#a and 1"))
        .hasMessageStartingWith("at position 8: expected a condition")
        .hasMessageEndingWith("found a number");
    assertThatThrownBy(() -> ExpressionParser.condition("not null"))
        .hasMessageEndingWith("found null");
  }

  @Test
  void condition_comparisonsTheLiteralsDecideAreErrors() {
    assertThatThrownBy(() -> ExpressionParser.condition("#a < null"))
        .hasMessage("at position 6: null cannot be ordered; compare it with == or !=");
    assertThatThrownBy(() -> ExpressionParser.condition("true > #a"))
        .hasMessage("at position 1: true cannot be ordered; compare it with == or !=");
    assertThatThrownBy(() -> ExpressionParser.condition("'5' == 5"))
        .hasMessage("at position 8: never equal: a quoted literal and a number");
    assertThatThrownBy(() -> ExpressionParser.condition("'a' < 1"))
        .hasMessage("at position 7: cannot order a quoted literal and a number");
    assertThat(condition("'a' == 'a'")).isEqualTo("(==@4 'a'@0 'a'@7)");
    assertThat(condition("null == #a")).isEqualTo("(==@5 null@0 #a@8)");
  }

  @Test
  void reference_pathNamesItsProperties() {
    Reference r = (Reference) ExpressionParser.key("#a.b.c");
    assertThat(r.path(0)).isEqualTo("#a");
    assertThat(r.path(2)).isEqualTo("#a.b.c");
    assertThat(r.properties()).containsExactly(new Property("b", 3), new Property("c", 5));
  }
}
