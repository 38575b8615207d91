package io.github.chash.aspect.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.CacheAnnotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

class ExpressionCompilerTest {

  /** Canonical forms for these tests: toString, and the parts joined with '|'. */
  static final KeyCanonicalizer TO_STRING =
      new KeyCanonicalizer() {
        @Override
        public String canonical(Object value, String where) {
          return String.valueOf(value);
        }

        @Override
        public String arguments(Object[] args, String method, String[] parameterNames) {
          StringJoiner joined = new StringJoiner("|");
          Arrays.stream(args).forEach(a -> joined.add(String.valueOf(a)));
          return joined.toString();
        }
      };

  public record Customer(String id, Address address) {}

  public record Address(String city) {}

  public static class Account {
    public final int number;
    private final boolean active;

    public Account(int number, boolean active) {
      this.number = number;
      this.active = active;
    }

    public boolean isActive() {
      return active;
    }

    public String getOwner() {
      return "owner-" + number;
    }
  }

  public static class PremiumAccount extends Account {
    public PremiumAccount(int number) {
      super(number, true);
    }

    public String getTier() {
      return "gold";
    }
  }

  @SuppressWarnings("unused")
  static class OrderService {
    String find(Customer customer) {
      return null;
    }

    String byIdAndYear(String id, int year) {
      return null;
    }

    String account(Account account) {
      return null;
    }

    String anything(Object value) {
      return null;
    }

    String none() {
      return null;
    }
  }

  static Method method(String name) {
    for (Method m : OrderService.class.getDeclaredMethods()) {
      if (m.getName().equals(name)) {
        return m;
      }
    }
    throw new AssertionError(name);
  }

  /** Checks and compiles a key as the aspect does; rule problems fail as the aspect's do. */
  static KeyExpression compile(
      Method method, String expression, String prefix, KeyCanonicalizer canonicalizer) {
    AdvisedMethod advised = AdvisedMethod.reflective(method);
    CacheAnnotation annotation =
        CacheAnnotation.cacheable("c", expression, "", "", "", false, false);
    AnnotationRules.Result checked =
        AnnotationRules.check(advised.shape(), AnnotationRules.Defaults.NONE, List.of(annotation));
    if (!checked.problems().isEmpty()) {
      throw new IllegalStateException(advised.description + ": " + checked.problems().get(0));
    }
    return ExpressionCompiler.key(
        advised,
        annotation,
        checked.annotations().get(0).key(),
        prefix,
        Object.class,
        canonicalizer);
  }

  static String eval(String method, String expression, Object... args) {
    return compile(method(method), expression, "", TO_STRING).evaluate(args, null);
  }

  @Test
  void compile_parameterByName() {
    assertThat(eval("byIdAndYear", "#id", "a7", 2024)).isEqualTo("a7");
    assertThat(eval("byIdAndYear", "#year", "a7", 2024)).isEqualTo("2024");
  }

  @Test
  void compile_parameterByIndex() {
    assertThat(eval("byIdAndYear", "#p1", "a7", 2024)).isEqualTo("2024");
    assertThat(eval("byIdAndYear", "#a0", "a7", 2024)).isEqualTo("a7");
  }

  @Test
  void compile_literalsAndConcatenation() {
    assertThat(eval("byIdAndYear", "#id + ':' + #year", "a7", 2024)).isEqualTo("a7:2024");
    assertThat(eval("byIdAndYear", "  'it''s'+#p1 ", "a7", 2024)).isEqualTo("it's2024");
  }

  @Test
  void compile_recordComponentPath() {
    Customer c = new Customer("c-1", new Address("Oslo"));
    assertThat(eval("find", "#customer.id", c)).isEqualTo("c-1");
    assertThat(eval("find", "#customer.address.city + '/' + #customer.id", c))
        .isEqualTo("Oslo/c-1");
  }

  @Test
  void compile_getterIsGetterAndPublicField() {
    Account a = new Account(12, true);
    assertThat(eval("account", "#account.owner", a)).isEqualTo("owner-12");
    assertThat(eval("account", "#account.active", a)).isEqualTo("true");
    assertThat(eval("account", "#account.number", a)).isEqualTo("12");
  }

  @Test
  void compile_propertyOfSubclassResolvedPerRuntimeClass() {
    KeyExpression key = compile(method("account"), "#account.tier", "", TO_STRING);
    assertThat(key.evaluate(new Object[] {new PremiumAccount(3)}, null)).isEqualTo("gold");
    assertThatThrownBy(() -> key.evaluate(new Object[] {new Account(4, false)}, null))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessageContaining(
            "OrderService.account(Account): @ShardedCacheable key expression \"#account.tier\" at position 10")
        .hasMessageContaining("no property tier on " + Account.class.getName());
  }

  @Test
  void compile_propertyOnObjectParameterResolvedAtRuntime() {
    assertThat(eval("anything", "#value.id", new Customer("x", null))).isEqualTo("x");
  }

  @Test
  void compile_prefixGoesBeforeEveryForm() {
    Method m = method("byIdAndYear");
    Object[] args = {"a7", 2024};
    assertThat(compile(m, "#id", "users:", TO_STRING).evaluate(args, null)).isEqualTo("users:a7");
    assertThat(compile(m, "#id + '-' + #year", "users:", TO_STRING).evaluate(args, null))
        .isEqualTo("users:a7-2024");
    assertThat(compile(m, "", "users:", TO_STRING).evaluate(args, null)).isEqualTo("users:a7|2024");
  }

  @Test
  void compile_noKeyMeansAllArguments() {
    assertThat(eval("byIdAndYear", "", "a7", 2024)).isEqualTo("a7|2024");
    assertThat(eval("none", "")).isEmpty();
  }

  @Test
  void compile_unknownParameterNamesTheMethodExpressionPositionAndParameters() {
    assertThatThrownBy(() -> eval("find", "#custmer.id", (Object) null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "OrderService.find(Customer): @ShardedCacheable key expression \"#custmer.id\" at position 1: no"
                + " parameter named custmer; parameters are: customer");
  }

  @Test
  void compile_unknownPropertyOnRecordFailsAtItsPosition() {
    assertThatThrownBy(() -> compile(method("find"), "'x' + #customer.idd", "", TO_STRING))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessageStartingWith(
            "OrderService.find(Customer): @ShardedCacheable key expression \"'x' + #customer.idd\" at position 17:"
                + " no property idd on "
                + Customer.class.getName());
  }

  @Test
  void compile_indexOutOfRange() {
    assertThatThrownBy(() -> compile(method("byIdAndYear"), "#p2", "", TO_STRING))
        .hasMessage(
            "OrderService.byIdAndYear(String, int): @ShardedCacheable key expression \"#p2\" at position 1: no"
                + " parameter #p2; the method has 2 parameters (#p0 to #p1)");
  }

  @Test
  void compile_syntaxErrors() {
    assertThatThrownBy(() -> compile(method("byIdAndYear"), "#id +", "", TO_STRING))
        .hasMessageEndingWith(
            "at position 6: expected '#parameter' or a quoted literal, found the end");
    assertThatThrownBy(() -> compile(method("byIdAndYear"), "#id #year", "", TO_STRING))
        .hasMessageEndingWith("at position 5: expected '+' or the end, found '#'");
    assertThatThrownBy(() -> compile(method("byIdAndYear"), "'abc", "", TO_STRING))
        .hasMessageEndingWith("at position 1: unterminated literal; close it with '");
    assertThatThrownBy(() -> compile(method("byIdAndYear"), "id", "", TO_STRING))
        .hasMessageEndingWith(
            "at position 1: expected '#parameter' or a quoted literal, found 'i'");
    assertThatThrownBy(() -> compile(method("find"), "#customer.", "", TO_STRING))
        .hasMessageEndingWith("at position 11: expected a property name after '.', found the end");
  }

  @Test
  void evaluate_nullInPathNamesTheExpression() {
    KeyExpression key = compile(method("find"), "#customer.address.city", "", TO_STRING);
    assertThatThrownBy(() -> key.evaluate(new Object[] {new Customer("c", null)}, null))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessage(
            "OrderService.find(Customer): @ShardedCacheable key expression \"#customer.address.city\" at position"
                + " 19: #customer.address is null, so its city cannot be read");
  }

  @Test
  void evaluate_passesMethodAndParameterToTheCanonicalizer() {
    KeyCanonicalizer failing =
        new KeyCanonicalizer() {
          @Override
          public String canonical(Object value, String where) {
            throw new IllegalArgumentException("key of " + where + " has no stable string form");
          }

          @Override
          public String arguments(Object[] args, String method, String[] names) {
            throw new IllegalArgumentException("key of " + method + "(" + names[0] + ")");
          }
        };
    assertThatThrownBy(
            () ->
                compile(method("find"), "#customer", "", failing)
                    .evaluate(new Object[] {null}, null))
        .hasMessage("key of OrderService.find(customer) has no stable string form");
    assertThatThrownBy(
            () -> compile(method("find"), "", "", failing).evaluate(new Object[] {null}, null))
        .hasMessage("key of OrderService.find(customer)");
  }

  @Test
  void compile_wovenNamesServeWhenTheClassFileHasNoMethodParameters() {
    // this module compiles with -parameters, so reflection has names; a woven join point's names
    // stand in for classes without them (ajc reads them from the local variable table)
    Method m = method("byIdAndYear");
    AdvisedMethod woven = AdvisedMethod.woven(m, new String[] {"id", "year"});
    assertThat(woven.parameterNames).containsExactly("id", "year");
    // names ajc makes up when a class has no debug information count as absent, unless reflection
    // has them
    assertThat(AdvisedMethod.woven(m, new String[] {"arg0", "arg1"}).parameterNames)
        .containsExactly("id", "year");
  }

  @Test
  void key_resultAndRoot() {
    AdvisedMethod advised = AdvisedMethod.reflective(method("byIdAndYear"));
    CacheAnnotation put =
        CacheAnnotation.put(
            "c", "#root.methodName + ':' + #result.id + ':' + #root.args", "", "", "");
    AnnotationRules.Result checked =
        AnnotationRules.check(advised.shape(), AnnotationRules.Defaults.NONE, List.of(put));
    assertThat(checked.problems()).isEmpty();
    KeyExpression key =
        ExpressionCompiler.key(
            advised, put, checked.annotations().get(0).key(), "", Customer.class, TO_STRING);
    assertThat(key.evaluate(new Object[] {"a7", 2024}, new Customer("c9", null)))
        .isEqualTo("byIdAndYear:c9:a7|2024");
  }

  // Conditions: what the comparisons mean, and the mistakes the compiler rejects.

  public enum Status {
    ACTIVE,
    BLOCKED {
      @Override
      public String toString() {
        return "blocked!";
      }
    }
  }

  @SuppressWarnings("unused")
  static class Conditions {
    String typed(long id, String name, Status status, Account account, boolean flag, Object any) {
      return null;
    }

    Long boxed(Integer n, Double d, java.math.BigDecimal price, Character c) {
      return null;
    }
  }

  static Condition condition(String method, String text) {
    Method m =
        Arrays.stream(Conditions.class.getDeclaredMethods())
            .filter(x -> x.getName().equals(method))
            .findFirst()
            .orElseThrow();
    AdvisedMethod advised = AdvisedMethod.reflective(m);
    CacheAnnotation a = CacheAnnotation.put("c", "", text, "", "");
    AnnotationRules.Result checked =
        AnnotationRules.check(advised.shape(), AnnotationRules.Defaults.NONE, List.of(a));
    if (!checked.problems().isEmpty()) {
      throw new IllegalStateException(advised.description + ": " + checked.problems().get(0));
    }
    return ExpressionCompiler.condition(
        advised,
        a,
        AnnotationRules.Attribute.CONDITION,
        checked.annotations().get(0).condition(),
        Account.class);
  }

  private static final Object[] TYPED = {
    7L, "ann", Status.BLOCKED, new Account(3, true), true, 2.5f
  };

  static boolean typed(String text) {
    return condition("typed", text).test(TYPED, new Account(9, false));
  }

  @Test
  void condition_numbersCompareByValueWhateverTheirClass() {
    assertThat(typed("#id == 7")).isTrue();
    assertThat(typed("#id == 7.0")).isTrue();
    assertThat(typed("#id > 6.5 and #id <= 7")).isTrue();
    assertThat(typed("#id != 7")).isFalse();
    assertThat(typed("#any > 2.4 and #any < 2.6")).isTrue();
    assertThat(typed("#account.number >= #id")).isFalse();
    Condition boxed = condition("boxed", "#n < #price and #d == -1.5 and #price == 10.00");
    assertThat(boxed.test(new Object[] {3, -1.5, new java.math.BigDecimal("10"), 'x'}, null))
        .isTrue();
    assertThat(boxed.test(new Object[] {30, -1.5, new java.math.BigDecimal("10"), 'x'}, null))
        .isFalse();
  }

  @Test
  void condition_stringsCharactersEnumsAndBooleans() {
    assertThat(typed("#name == 'ann' and #name < 'bob' and #name >= 'ann'")).isTrue();
    assertThat(typed("#status == 'BLOCKED' and #status != 'ACTIVE'")).isTrue();
    // enum constants order by declaration (BLOCKED, with a body, is a subclass of Status)
    assertThat(typed("#status > 'ACTIVE' and #status <= 'BLOCKED'")).isTrue();
    assertThat(typed("#flag and #account.active")).isTrue();
    assertThat(typed("#flag == false or not #account.active")).isFalse();
    assertThat(typed("#result.number == 9 and not #result.active")).isTrue();
    assertThat(
            condition("boxed", "#c == 'x' and #c < 'y'")
                .test(new Object[] {1, 1.0, java.math.BigDecimal.ONE, 'x'}, null))
        .isTrue();
  }

  @Test
  void condition_nullChecksAndOrderingsWithNull() {
    Object[] nulls = {7L, null, null, null, true, null};
    assertThat(condition("typed", "#name == null and #any == null").test(nulls, null)).isTrue();
    assertThat(condition("typed", "#status != null").test(nulls, null)).isFalse();
    // an ordering with null is false either way round
    assertThat(condition("typed", "#name < 'x' or #name >= 'x'").test(nulls, null)).isFalse();
    assertThat(condition("typed", "#result == null").test(nulls, null)).isTrue();
  }

  @Test
  void condition_andOrShortCircuit() {
    // the right side would fail on the null account
    Object[] noAccount = {7L, "ann", Status.ACTIVE, null, true, null};
    assertThat(condition("typed", "#account != null and #account.active").test(noAccount, null))
        .isFalse();
    assertThat(condition("typed", "#account == null or #account.active").test(noAccount, null))
        .isTrue();
  }

  @Test
  void condition_comparisonsThatCanNeverMatchAreCompileErrors() {
    assertThatThrownBy(() -> condition("typed", "#id == '7'"))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessage(
            "Conditions.typed(long, String, Status, Account, boolean, Object): @ShardedCachePut"
                + " condition \"#id == '7'\" at position 5: never equal: #id (long) and the quoted"
                + " literal '7'");
    assertThatThrownBy(() -> condition("typed", "#id == null"))
        .hasMessageEndingWith("at position 5: #id (long) is never null");
    assertThatThrownBy(() -> condition("typed", "#name > 3"))
        .hasMessageEndingWith("at position 7: cannot order #name (String) and the number 3");
    assertThatThrownBy(() -> condition("typed", "#flag < #id"))
        .hasMessageEndingWith(
            "at position 7: #flag (boolean) is true or false, which cannot be ordered");
    assertThatThrownBy(() -> condition("typed", "#status == 'ACTIV'"))
        .hasMessageEndingWith(
            "at position 12: 'ACTIV' is not a constant of Status; constants are: ACTIVE, BLOCKED");
    assertThatThrownBy(() -> condition("typed", "#name"))
        .hasMessageEndingWith(
            "at position 1: #name (String) is not true or false; compare it, e.g. #name != null");
    assertThatThrownBy(() -> condition("typed", "#account.number == 'x'"))
        .hasMessageEndingWith("never equal: #account.number (int) and the quoted literal 'x'");
  }

  @Test
  void condition_valuesOnlyKnownPerCallFailWithThePosition() {
    Condition bare = condition("typed", "not #any");
    assertThatThrownBy(() -> bare.test(new Object[] {7L, "a", null, null, true, "yes"}, null))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessageEndingWith(
            "condition \"not #any\" at position 5: #any (Object) is a java.lang.String, not true"
                + " or false");
    Condition order = condition("typed", "#any < 1");
    assertThatThrownBy(() -> order.test(new Object[] {7L, "a", null, null, true, "yes"}, null))
        .hasMessageEndingWith(
            "at position 6: cannot order #any (Object) and the number 1: a java.lang.String and a"
                + " java.lang.Long");
  }
}
