package io.github.chash.aspect.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

class KeyExpressionsTest {

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

  static String eval(String method, String expression, Object... args) {
    return KeyExpressions.compile(method(method), expression, "", TO_STRING).evaluate(args);
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
    KeyExpression key = KeyExpressions.compile(method("account"), "#account.tier", "", TO_STRING);
    assertThat(key.evaluate(new Object[] {new PremiumAccount(3)})).isEqualTo("gold");
    assertThatThrownBy(() -> key.evaluate(new Object[] {new Account(4, false)}))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessageContaining(
            "OrderService.account(Account): key expression \"#account.tier\" at position 10")
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
    assertThat(KeyExpressions.compile(m, "#id", "users:", TO_STRING).evaluate(args))
        .isEqualTo("users:a7");
    assertThat(KeyExpressions.compile(m, "#id + '-' + #year", "users:", TO_STRING).evaluate(args))
        .isEqualTo("users:a7-2024");
    assertThat(KeyExpressions.compile(m, "", "users:", TO_STRING).evaluate(args))
        .isEqualTo("users:a7|2024");
  }

  @Test
  void compile_noKeyMeansAllArguments() {
    assertThat(eval("byIdAndYear", "", "a7", 2024)).isEqualTo("a7|2024");
    assertThat(eval("none", "")).isEmpty();
  }

  @Test
  void compile_unknownParameterNamesTheMethodExpressionPositionAndParameters() {
    assertThatThrownBy(() -> eval("find", "#custmer.id", (Object) null))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessage(
            "OrderService.find(Customer): key expression \"#custmer.id\" at position 1: no"
                + " parameter named custmer; parameters are: customer");
  }

  @Test
  void compile_unknownPropertyOnRecordFailsAtItsPosition() {
    assertThatThrownBy(
            () -> KeyExpressions.compile(method("find"), "'x' + #customer.idd", "", TO_STRING))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessageStartingWith(
            "OrderService.find(Customer): key expression \"'x' + #customer.idd\" at position 17:"
                + " no property idd on "
                + Customer.class.getName());
  }

  @Test
  void compile_indexOutOfRange() {
    assertThatThrownBy(() -> KeyExpressions.compile(method("byIdAndYear"), "#p2", "", TO_STRING))
        .hasMessage(
            "OrderService.byIdAndYear(String, int): key expression \"#p2\" at position 1: no"
                + " parameter #p2; the method has 2 parameters (#p0 to #p1)");
  }

  @Test
  void compile_syntaxErrors() {
    assertThatThrownBy(() -> KeyExpressions.compile(method("byIdAndYear"), "#id +", "", TO_STRING))
        .hasMessageEndingWith(
            "at position 6: expected '#parameter' or a quoted literal, found the end");
    assertThatThrownBy(
            () -> KeyExpressions.compile(method("byIdAndYear"), "#id #year", "", TO_STRING))
        .hasMessageEndingWith("at position 5: expected '+' or the end, found '#'");
    assertThatThrownBy(() -> KeyExpressions.compile(method("byIdAndYear"), "'abc", "", TO_STRING))
        .hasMessageEndingWith("at position 1: unterminated literal; close it with '");
    assertThatThrownBy(() -> KeyExpressions.compile(method("byIdAndYear"), "id", "", TO_STRING))
        .hasMessageEndingWith(
            "at position 1: expected '#parameter' or a quoted literal, found 'i'");
    assertThatThrownBy(() -> KeyExpressions.compile(method("find"), "#customer.", "", TO_STRING))
        .hasMessageEndingWith("at position 11: expected a property name after '.', found the end");
  }

  @Test
  void evaluate_nullInPathNamesTheExpression() {
    KeyExpression key =
        KeyExpressions.compile(method("find"), "#customer.address.city", "", TO_STRING);
    assertThatThrownBy(() -> key.evaluate(new Object[] {new Customer("c", null)}))
        .isInstanceOf(KeyExpressionException.class)
        .hasMessage(
            "OrderService.find(Customer): key expression \"#customer.address.city\" at position"
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
                KeyExpressions.compile(method("find"), "#customer", "", failing)
                    .evaluate(new Object[] {null}))
        .hasMessage("key of OrderService.find(customer) has no stable string form");
    assertThatThrownBy(
            () ->
                KeyExpressions.compile(method("find"), "", "", failing)
                    .evaluate(new Object[] {null}))
        .hasMessage("key of OrderService.find(customer)");
  }
}
