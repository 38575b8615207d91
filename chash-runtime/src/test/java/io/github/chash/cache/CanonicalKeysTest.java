package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.ring.RoutingKey;
import io.github.chash.testing.CollidingKeys;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CanonicalKeysTest {
  enum Status {
    ACTIVE
  }

  record Money(long amount, String currency) {}

  record Order(Money total, List<Status> statuses) {}

  static final class Customer {} // keeps Object.toString()

  record Holder(Customer customer) {}

  static final class Sku {
    @Override
    public String toString() {
      return "SKU-7";
    }
  }

  private static String of(Object key) {
    return CanonicalKeys.of(key, "Test.m(key)");
  }

  @Test
  void escaped_isTrueForTheNineEscapedCharsAlone() {
    for (int c = Character.MIN_VALUE; c <= Character.MAX_VALUE; c++) {
      assertThat(CanonicalKeys.escaped((char) c))
          .as("U+%04X", c)
          .isEqualTo("\\,=()[]{}".indexOf(c) >= 0);
    }
  }

  @Test
  void of_scalarGoldenForms() {
    assertThat(of("alice")).isEqualTo("alice");
    assertThat(of(new StringBuilder("sb"))).isEqualTo("sb");
    assertThat(of('x')).isEqualTo("x");
    assertThat(of(null)).isEqualTo("null");
    assertThat(of(true)).isEqualTo("true");
    assertThat(of(42)).isEqualTo("42");
    assertThat(of(42L)).isEqualTo("42");
    assertThat(of((short) -7)).isEqualTo("-7");
    assertThat(of((byte) 3)).isEqualTo("3");
    assertThat(of(new BigInteger("123456789012345678901234567890")))
        .isEqualTo("123456789012345678901234567890");
    assertThat(of(UUID.fromString("123E4567-E89B-12D3-A456-426614174000")))
        .isEqualTo("123e4567-e89b-12d3-a456-426614174000");
    assertThat(of(Status.ACTIVE)).isEqualTo("ACTIVE");
    assertThat(of(new Sku())).isEqualTo("SKU-7");
  }

  @Test
  void of_numbersOfEqualValueShareAForm() {
    assertThat(of(2.0d)).isEqualTo("2");
    assertThat(of(2.0f)).isEqualTo("2");
    assertThat(of(new BigDecimal("2.00"))).isEqualTo("2");
    assertThat(of(new BigDecimal("0.000"))).isEqualTo("0");
    assertThat(of(-0.0d)).isEqualTo("0");
    assertThat(of(12.5d)).isEqualTo("12.5");
    assertThat(of(0.1f)).isEqualTo("0.1");
    assertThat(of(0.1d)).isEqualTo("0.1");
    assertThat(of(new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(of(1e-7d)).isEqualTo("0.0000001");
    assertThat(of(Double.NaN)).isEqualTo("NaN");
    assertThat(of(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    assertThat(of(1e20d)).isEqualTo("100000000000000000000");
  }

  @Test
  void of_javaTimeIsIso8601() {
    assertThat(of(Instant.parse("2024-03-01T10:15:30Z"))).isEqualTo("2024-03-01T10:15:30Z");
    assertThat(of(LocalDate.of(2024, 3, 1))).isEqualTo("2024-03-01");
    assertThat(of(LocalDateTime.of(2024, 3, 1, 10, 15))).isEqualTo("2024-03-01T10:15");
    assertThat(of(OffsetDateTime.of(2024, 3, 1, 10, 15, 30, 0, ZoneOffset.ofHours(2))))
        .isEqualTo("2024-03-01T10:15:30+02:00");
    assertThat(of(Duration.ofMinutes(90))).isEqualTo("PT1H30M");
    assertThat(of(Period.ofDays(3))).isEqualTo("P3D");
    assertThat(of(ZoneId.of("Europe/Paris"))).isEqualTo("Europe/Paris");
    assertThat(of(new Date(Instant.parse("2024-03-01T10:15:30Z").toEpochMilli())))
        .isEqualTo("2024-03-01T10:15:30Z");
  }

  @Test
  void of_compositeGoldenForms() {
    assertThat(of(new Money(7, "EUR"))).isEqualTo("(7,EUR)");
    assertThat(of(new Order(new Money(7, "EUR"), List.of(Status.ACTIVE))))
        .isEqualTo("((7,EUR),[ACTIVE])");
    assertThat(of(List.of(1, 2L, "x"))).isEqualTo("[1,2,x]");
    assertThat(of(new int[] {1, 2, 3})).isEqualTo("[1,2,3]");
    assertThat(of(new String[] {"a", null})).isEqualTo("[a,null]");
    assertThat(of(Optional.of(5))).isEqualTo("5");
    assertThat(of(Optional.empty())).isEqualTo("\\empty");
    assertThat(of(List.of())).isEqualTo("[]");
    Map<String, Integer> map = new LinkedHashMap<>();
    map.put("b", 2);
    map.put("a", 1);
    assertThat(of(map)).isEqualTo("{a=1,b=2}").isEqualTo(of(new TreeMap<>(map)));
  }

  @Test
  void of_setsAreSortedSoIterationOrderDoesNotMatter() {
    Set<String> one = new LinkedHashSet<>(List.of("b", "a", "c"));
    Set<String> two = new LinkedHashSet<>(List.of("c", "b", "a"));
    assertThat(of(one)).isEqualTo("[a,b,c]").isEqualTo(of(two));
    assertThat(of(new HashSet<>(List.of(Status.ACTIVE)))).isEqualTo("[ACTIVE]");
  }

  @Test
  void of_keysThatOnceCollided_haveDistinctForms() {
    for (Object[] pair : CollidingKeys.pairs()) {
      assertThat(of(pair[0])).as(Arrays.deepToString(pair)).isNotEqualTo(of(pair[1]));
    }
    // (null, "x") and ("null", "x") as a method's arguments, not a list
    assertThat(CanonicalKeys.ofArguments(new Object[] {null, "x"}, "S.m", new String[] {"a", "b"}))
        .isEqualTo("null,x")
        .isNotEqualTo(
            CanonicalKeys.ofArguments(new Object[] {"null", "x"}, "S.m", new String[] {"a", "b"}));
  }

  @Test
  void of_aTextThatReadsAsAnotherForm_isMarkedWithABackslash_theCommonTextIsNot() {
    assertThat(of("null")).isEqualTo("\\null");
    assertThat(of("[a,b]")).isEqualTo("\\[a,b]");
    assertThat(of("{a=b}")).isEqualTo("\\{a=b}");
    assertThat(of("(7,EUR)")).isEqualTo("\\(7,EUR)");
    assertThat(of("\\x")).isEqualTo("\\\\x");
    assertThat(of(new StringBuilder("[1]"))).isEqualTo("\\[1]");
    assertThat(of(List.of("null", "nullx"))).isEqualTo("[\\null,nullx]");
    assertThat(of(List.of("", "a"))).isEqualTo("[\\\"\\\",a]");
    // the keys already cached keep their form: texts that read as nothing else, numbers, nulls
    assertThat(of("")).isEmpty();
    assertThat(of("nullable")).isEqualTo("nullable");
    assertThat(of("a[1]")).isEqualTo("a[1]");
    assertThat(of("user:42")).isEqualTo("user:42");
    assertThat(of(42)).isEqualTo(of("42"));
    // the three ways to a routing key agree on the marked forms
    RoutingKey users = RoutingKey.of("users:");
    for (Object key : List.of("null", "[a]", "\\", "plain")) {
      assertThat(CanonicalKeys.prefixed("users:", key, "T.m"))
          .isEqualTo("users:" + of(key))
          .isEqualTo(CanonicalKeys.routingKey(users, key, "T.m").text());
    }
  }

  /**
   * Injectivity, checked on random keys built from the characters that have a meaning in a form:
   * two keys with one form must be the same key. Texts have no digits, so the one sharing this
   * library means (a text and a number, a list and an array of equal elements) cannot occur.
   */
  @Test
  void of_randomKeysOfTextsNullsOptionalsAndComposites_neverShareAForm() {
    java.util.Random random = new java.util.Random(43);
    Map<String, Object> seen = new java.util.HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      Object key = randomKey(random, 0);
      Object same = seen.putIfAbsent(of(key), normalized(key));
      if (same != null) {
        assertThat(normalized(key)).as("a key with the form " + of(key)).isEqualTo(same);
      }
    }
  }

  private static Object randomKey(java.util.Random random, int depth) {
    int kind = random.nextInt(depth < 3 ? 8 : 4);
    return switch (kind) {
      case 0 -> null;
      case 1 -> Optional.empty();
      case 2, 3 -> randomText(random);
      case 4 -> {
        byte[] bytes = new byte[1 + random.nextInt(3)];
        random.nextBytes(bytes);
        yield bytes;
      }
      case 5 -> {
        Map<String, Object> map = new TreeMap<>();
        for (int n = random.nextInt(3); n > 0; n--) {
          map.put(randomText(random), randomKey(random, depth + 1));
        }
        yield map;
      }
      default -> {
        List<Object> list = new java.util.ArrayList<>();
        for (int n = random.nextInt(4); n > 0; n--) {
          list.add(randomKey(random, depth + 1));
        }
        yield list;
      }
    };
  }

  private static String randomText(java.util.Random random) {
    String alphabet = "\\,=()[]{}nulempty ";
    StringBuilder text = new StringBuilder();
    if (random.nextInt(4) == 0) {
      text.append(random.nextBoolean() ? "null" : "\\empty");
    }
    for (int n = random.nextInt(5); n > 0; n--) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  /** A key as a value that equals another key's exactly when they are the same key. */
  private static Object normalized(Object key) {
    if (key instanceof byte[] bytes) {
      return "bytes " + Arrays.toString(bytes);
    }
    if (key instanceof String text) {
      return "text " + text;
    }
    if (key instanceof List<?> list) {
      return list.stream().map(CanonicalKeysTest::normalized).toList();
    }
    if (key instanceof Map<?, ?> map) {
      Map<Object, Object> out = new java.util.HashMap<>();
      map.forEach((k, v) -> out.put(normalized(k), normalized(v)));
      return out;
    }
    return String.valueOf(key); // null and Optional.empty
  }

  @Test
  void of_structuralCharactersInsideCompositesAreEscaped() {
    assertThat(of(List.of("a,b"))).isEqualTo("[a\\,b]");
    assertThat(of(List.of("a", "b"))).isEqualTo("[a,b]");
    assertThat(of(new Money(1, "x)(y"))).isEqualTo("(1,x\\)\\(y)");
    assertThat(of(List.of("back\\slash"))).isEqualTo("[back\\\\slash]");
    assertThat(of(ZonedDateTime.of(2024, 3, 1, 10, 0, 0, 0, ZoneId.of("Europe/Paris"))))
        .isEqualTo("2024-03-01T10:00+01:00[Europe/Paris]");
    assertThat(of(List.of(ZonedDateTime.of(2024, 3, 1, 10, 0, 0, 0, ZoneId.of("Europe/Paris")))))
        .isEqualTo("[2024-03-01T10:00+01:00\\[Europe/Paris\\]]");
  }

  @Test
  void of_identityToStringIsRejectedNamingMethodAndParameter() {
    assertThatThrownBy(() -> CanonicalKeys.of(new Customer(), "OrderService.find(customer)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "key of OrderService.find(customer) has no stable string form: the key is a "
                + Customer.class.getName()
                + ", which does not override toString(), so its form ("
                + Customer.class.getName()
                + "@")
        .hasMessageEndingWith(
            ") differs between JVMs; use a key expression naming a stable property, or override"
                + " toString()");
  }

  @Test
  void of_nestedIdentityToStringNamesThePath() {
    Object key = List.of(new Holder(null), new Holder(new Customer()));
    assertThatThrownBy(() -> CanonicalKeys.of(key, "OrderService.find(holders)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "key of OrderService.find(holders) has no stable string form: component [1].customer"
                + " of the key is a "
                + Customer.class.getName());
  }

  @Test
  void ofArguments_joinsArgumentsAndNamesTheBadParameter() {
    String[] names = {"id", "status", "customer"};
    assertThat(CanonicalKeys.ofArguments(new Object[0], "S.m", new String[0])).isEmpty();
    assertThat(CanonicalKeys.ofArguments(new Object[] {"a,b"}, "S.m", new String[] {"id"}))
        .isEqualTo("a,b");
    assertThat(CanonicalKeys.ofArguments(new Object[] {"a,b", Status.ACTIVE, 3}, "S.m", names))
        .isEqualTo("a\\,b,ACTIVE,3");
    assertThatThrownBy(
            () ->
                CanonicalKeys.ofArguments(
                    new Object[] {1, Status.ACTIVE, new Customer()}, "OrderService.find", names))
        .hasMessageStartingWith(
            "key of OrderService.find(customer) has no stable string form: the key is a ");
  }

  @Test
  void appendTo_appendsTheSameForm() {
    Object key = Arrays.asList(new Money(1, "EUR"), null);
    assertThat(CanonicalKeys.appendTo(new StringBuilder("c:"), key, "w").toString())
        .isEqualTo("c:" + of(key))
        .isEqualTo("c:[(1,EUR),null]");
  }

  enum Flag {
    ACTIVE,
    BLOCKED {
      @Override
      public String toString() {
        return "blocked!";
      }
    }
  }

  record Filter(List<Flag> flags, String name) {}

  @Test
  void of_recordHoldingAListOfEnums_usesConstantNamesEvenWithAConstantBody() {
    assertThat(CanonicalKeys.of(new Filter(List.of(Flag.ACTIVE, Flag.BLOCKED), "a,b"), "T.m(f)"))
        .isEqualTo("([ACTIVE,BLOCKED],a\\,b)");
  }

  @Test
  void of_collectionContainingItself_isAnArgumentErrorNotAStackOverflow() {
    List<Object> self = new java.util.ArrayList<>();
    self.add(self);
    assertThatThrownBy(() -> CanonicalKeys.of(self, "T.m(list)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "key of T.m(list) nests deeper than 100 levels of records, collections, arrays or"
                + " maps; does a collection contain itself?");
    Map<String, Object> map = new java.util.HashMap<>();
    map.put("me", map);
    assertThatThrownBy(
            () -> CanonicalKeys.ofArguments(new Object[] {1, map}, "T.m", new String[] {"a", "b"}))
        .hasMessageStartingWith("key of T.m(b) nests deeper than 100 levels");
  }

  record Primitives(
      long l, int i, short s, byte b, char c, boolean z, double d, float f, Long boxed) {}

  @Test
  void of_recordComponentsOfEveryPrimitiveType_takeTheFormsOfTheirBoxedValues() {
    Primitives p =
        new Primitives(Long.MIN_VALUE, -7, (short) 300, (byte) -1, ',', true, 2.5, 0.1f, null);
    assertThat(of(p))
        .isEqualTo("(-9223372036854775808,-7,300,-1,\\,,true,2.5,0.1,null)")
        .isEqualTo(
            of(Arrays.asList(
                    Long.MIN_VALUE, -7, (short) 300, (byte) -1, ',', true, 2.5, 0.1f, null))
                .replace('[', '(')
                .replace(']', ')'));
  }

  record Thrown(long id) {
    @Override
    public long id() {
      throw new IllegalStateException("no id yet");
    }
  }

  @Test
  void of_recordWhoseAccessorThrows_namesTheComponent() {
    assertThatThrownBy(() -> of(new Thrown(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot read record component id of " + Thrown.class.getName())
        .hasRootCauseMessage("no id yet");
  }

  /** A subclass takes its superclass's form, as a type test would give it. */
  static final class BigId extends BigInteger {
    private static final long serialVersionUID = 1L;

    BigId(String digits) {
      super(digits);
    }

    @Override
    public String toString() {
      return super.toString();
    }
  }

  @Test
  void of_subclassesOfKeyTypes_takeTheirSuperclassForm() {
    assertThat(of(new BigId("12345678901234567890"))).isEqualTo("12345678901234567890");
    assertThat(of(java.sql.Timestamp.from(Instant.parse("2024-03-01T10:15:30Z"))))
        .isEqualTo("2024-03-01T10:15:30Z");
    assertThat(of(List.of(new BigDecimal("2.50") {}))).isEqualTo("[2.5]");
  }

  @Test
  void recordComponents_readThroughMethodInvokeWhereNoDirectHandleIsAllowed() throws Throwable {
    Money money = new Money(-7, "EUR");
    long amount =
        (long)
            RecordComponents.Component.reflective(Money.class.getMethod("amount"), true)
                .invokeExact((Object) money);
    Object currency =
        (Object)
            RecordComponents.Component.reflective(Money.class.getMethod("currency"), false)
                .invokeExact((Object) money);
    long widened =
        (long)
            RecordComponents.Component.reflective(Primitives.class.getMethod("i"), true)
                .invokeExact(
                    (Object) new Primitives(0, -3, (short) 0, (byte) 0, 'c', false, 0, 0, null));
    assertThat(amount).isEqualTo(-7L);
    assertThat(currency).isEqualTo("EUR");
    assertThat(widened).isEqualTo(-3L);
  }

  @Test
  void recordComponents_ofThisModule_areReadThroughFunctionsMadeBesideTheRecord() throws Exception {
    Primitives p = new Primitives(5, -3, (short) 7, (byte) 1, 'c', true, 2.5, 0.1f, 9L);
    var amount = RecordComponents.Component.longFunction(Money.class.getMethod("amount"));
    var currency = RecordComponents.Component.function(Money.class.getMethod("currency"));
    var widened = RecordComponents.Component.longFunction(Primitives.class.getMethod("i"));
    var boxed = RecordComponents.Component.function(Primitives.class.getMethod("z"));
    assertThat(amount.applyAsLong(new Money(-7, "EUR"))).isEqualTo(-7L);
    assertThat(currency.apply(new Money(-7, "EUR"))).isEqualTo("EUR");
    assertThat(widened.applyAsLong(p)).isEqualTo(-3L);
    assertThat(boxed.apply(p)).isEqualTo(Boolean.TRUE);
  }

  /**
   * {@code jdk.net.UnixDomainPrincipal} is a record of a named module that does not open its
   * package: chash may not define a function beside it, and reads it through the handle.
   */
  @Test
  void recordComponents_ofAModuleClosedToChash_areReadThroughTheHandle() throws Exception {
    Class<?> closed = Class.forName("jdk.net.UnixDomainPrincipal");
    UserPrincipal user = () -> "ann";
    GroupPrincipal group = () -> "staff";
    Record principal =
        (Record)
            closed
                .getConstructor(UserPrincipal.class, GroupPrincipal.class)
                .newInstance(user, group);
    assertThat(RecordComponents.Component.function(closed.getMethod("user"))).isNull();
    assertThat(RecordComponents.of(closed).all[0].read(principal)).isSameAs(user);
    assertThat(RecordComponents.of(closed).all[1].read(principal)).isSameAs(group);
  }

  @Test
  void recordComponents_readThroughAHandle_passWhatTheAccessorThrows() throws Exception {
    var direct =
        new RecordComponents.Component.ThroughHandle(
            RecordComponents.Component.reflective(Money.class.getMethod("amount"), true));
    var throwing =
        new RecordComponents.Component.ThroughHandle(
            RecordComponents.Component.reflective(Thrown.class.getMethod("id"), true));
    assertThat(direct.applyAsLong(new Money(-7, "EUR"))).isEqualTo(-7L);
    // Method.invoke's checked InvocationTargetException arrives undeclared, the cause inside it
    assertThatThrownBy(() -> throwing.applyAsLong(new Thrown(1)))
        .isInstanceOf(java.lang.reflect.UndeclaredThrowableException.class)
        .hasRootCauseMessage("no id yet");
  }

  record Account(String region, long number) {}

  /** A record whose accessor makes another key's routing key while its own is being written. */
  record Nesting(Account inner) {
    @Override
    public Account inner() {
      CanonicalKeys.routingKey(
          io.github.chash.ring.RoutingKey.of("other:"), new Account("x", 1), "Nesting.inner");
      return inner;
    }
  }

  @Test
  void routingKey_ofAComposite_isItsPrefixedForm_evenWhenAnAccessorMakesAnotherKeyMeanwhile() {
    io.github.chash.ring.RoutingKey users = io.github.chash.ring.RoutingKey.of("users:");
    for (int i = 0; i < 3; i++) { // the thread's buffer, reused
      assertThat(CanonicalKeys.routingKey(users, new Account("eu,1", 42 + i), "T.m").text())
          .isEqualTo("users:(eu\\,1," + (42 + i) + ")")
          .isEqualTo("users:" + CanonicalKeys.of(new Account("eu,1", 42 + i), "T.m"));
    }
    assertThat(CanonicalKeys.routingKey(users, new Nesting(new Account("eu", 7)), "T.m").text())
        .isEqualTo("users:((eu,7))");
    StringBuilder large = new StringBuilder();
    large.append("x".repeat(5000));
    assertThat(CanonicalKeys.routingKey(users, java.util.List.of(large.toString()), "T.m").text())
        .isEqualTo("users:[" + large + "]");
    assertThat(CanonicalKeys.routingKey(users, new Account("é", 1), "T.m").text())
        .isEqualTo("users:(é,1)");
  }
}
