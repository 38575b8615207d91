package io.github.chash.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.keys.Expression.Reference;
import io.github.chash.internal.keys.References.Kind;
import io.github.chash.internal.keys.References.Target;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReferencesTest {
  private static final MethodShape NAMED = new MethodShape(List.of("id", "year"), 2, false);
  private static final MethodShape UNNAMED = new MethodShape(null, 2, false);

  private static Target resolve(String reference, MethodShape method) {
    return References.resolve((Reference) ExpressionParser.key(reference), method, null);
  }

  @Test
  void resolve_parameterByNameThenByIndex() {
    assertThat(resolve("#year", NAMED)).isEqualTo(new Target(Kind.PARAMETER, 1, List.of()));
    assertThat(resolve("#p0", NAMED).parameter()).isZero();
    assertThat(resolve("#a1", UNNAMED).parameter()).isEqualTo(1);
    assertThat(resolve("#id.value", NAMED).properties()).hasSize(1);
  }

  @Test
  void resolve_aParameterNamedLikeAnIndexWinsOverTheIndex() {
    MethodShape method = new MethodShape(List.of("x", "p0"), 2, false);
    assertThat(resolve("#p0", method).parameter()).isEqualTo(1);
  }

  @Test
  void resolve_resultAndRoot() {
    assertThat(resolve("#result.id", NAMED).kind()).isEqualTo(Kind.RESULT);
    assertThat(resolve("#root.methodName", UNNAMED))
        .isEqualTo(new Target(Kind.METHOD_NAME, -1, List.of()));
    assertThat(resolve("#root.args", UNNAMED).kind()).isEqualTo(Kind.ARGS);
  }

  @Test
  void resolve_resultWhereItDoesNotExist() {
    Reference result =
        (Reference) ((Expression.Concat) ExpressionParser.key("'x' + #result")).parts().get(1);
    assertThatThrownBy(() -> References.resolve(result, NAMED, "not here"))
        .isInstanceOf(ExpressionException.class)
        .hasMessage("at position 7: not here");
    assertThatThrownBy(() -> resolve("#result", new MethodShape(List.of(), 0, true)))
        .hasMessage("at position 1: the method returns nothing, so #result would always be null");
  }

  @Test
  void resolve_rootMembersAreExact() {
    assertThatThrownBy(() -> resolve("#root", NAMED))
        .hasMessage("at position 1: #root needs a property: #root.methodName or #root.args");
    assertThatThrownBy(() -> resolve("#root.method", NAMED))
        .hasMessage("at position 7: #root has no property method; it has methodName and args");
    assertThatThrownBy(() -> resolve("#root.args.length", NAMED))
        .hasMessage("at position 12: #root.args has no properties");
  }

  @Test
  void resolve_unknownNamesSayWhatTheMethodHas() {
    assertThatThrownBy(() -> resolve("#idd", NAMED))
        .hasMessage("at position 1: no parameter named idd; parameters are: id, year");
    assertThatThrownBy(() -> resolve("#p2", NAMED))
        .hasMessage("at position 1: no parameter #p2; the method has 2 parameters (#p0 to #p1)");
    assertThatThrownBy(() -> resolve("#p0", new MethodShape(List.of(), 0, false)))
        .hasMessage("at position 1: no parameter #p0; the method has 0 parameters");
    assertThatThrownBy(() -> resolve("#id", new MethodShape(null, 0, false)))
        .hasMessage("at position 1: no parameter named id; the method has no parameters");
  }

  @Test
  void resolve_namesAbsentFromTheClassFileSayHowToGetThem() {
    assertThatThrownBy(() -> resolve("#id", UNNAMED))
        .hasMessage(
            "at position 1: no parameter named id; parameter names are not in the class file:"
                + " compile with -parameters (maven-compiler-plugin <parameters>true</parameters>;"
                + " Spring proxies need it, AspectJ weaving also reads javac's debug information)"
                + " or use #p0 to #p1");
    assertThatThrownBy(() -> resolve("#id", new MethodShape(null, 1, false)))
        .hasMessageEndingWith(" or use #p0");
  }

  @Test
  void all_findsReferencesInTextOrder() {
    Expression e = ExpressionParser.condition("not (#a.b == 1 or #c) and 'x' != #d");
    assertThat(References.all(e)).extracting(Reference::name).containsExactly("a", "c", "d");
  }

  @Test
  void methodShape_namesMustMatchTheCount() {
    assertThatThrownBy(() -> new MethodShape(List.of("a"), 2, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parameter names [a] do not match the parameter count 2");
  }
}
