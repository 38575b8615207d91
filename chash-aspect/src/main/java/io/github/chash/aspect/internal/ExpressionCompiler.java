package io.github.chash.aspect.internal;

import io.github.chash.cache.CanonicalKeys;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.AnnotationRules.Attribute;
import io.github.chash.internal.keys.CacheAnnotation;
import io.github.chash.internal.keys.Expression;
import io.github.chash.internal.keys.Expression.And;
import io.github.chash.internal.keys.Expression.Bool;
import io.github.chash.internal.keys.Expression.Comparison;
import io.github.chash.internal.keys.Expression.Concat;
import io.github.chash.internal.keys.Expression.Not;
import io.github.chash.internal.keys.Expression.Null;
import io.github.chash.internal.keys.Expression.Numeral;
import io.github.chash.internal.keys.Expression.Operator;
import io.github.chash.internal.keys.Expression.Or;
import io.github.chash.internal.keys.Expression.Reference;
import io.github.chash.internal.keys.Expression.Text;
import io.github.chash.internal.keys.ExpressionException;
import io.github.chash.internal.keys.References;
import io.github.chash.ring.RoutingKey;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compiles the parsed key, condition and unless of one annotation into {@link KeyExpression}s and
 * {@link Condition}s, once per method. The shared {@link AnnotationRules} have already checked the
 * syntax and the references; this adds what needs the method's types: property paths, and
 * comparisons whose types can never match ({@code #id == 'x'} for a {@code long id}), an enum
 * compared with a string that names none of its constants, a bare reference that is not a boolean.
 * Thread-safe once built; compiled expressions are too.
 */
final class ExpressionCompiler {
  private final AdvisedMethod method;
  private final CacheAnnotation annotation;
  private final Attribute attribute;
  private final Class<?> resultType;
  private final ExpressionSite site;

  /** Reads one value of a call. */
  @FunctionalInterface
  private interface Value {
    Object get(Object[] args, Object result);
  }

  /** One key part. */
  @FunctionalInterface
  private interface Term {
    String evaluate(Object[] args, Object result);
  }

  /**
   * A compiled operand of a comparison.
   *
   * @param type its declared type (primitive if so declared), {@code null} for the null literal
   * @param description how messages name it: {@code #user.age (int)}, {@code the number 18}
   * @param start its position in the expression
   * @param literal the literal's value, if it is one (then {@code value} returns it)
   */
  private record Operand(
      Value value,
      Class<?> type,
      String description,
      int start,
      boolean isLiteral,
      Object literal) {
    static Operand literal(Object constant, Class<?> type, String description, int start) {
      return new Operand((args, result) -> constant, type, description, start, true, constant);
    }
  }

  /** Declared types sorted by what they can be compared with. */
  private enum Category {
    NUMBER,
    TEXT,
    BOOLEAN,
    ENUM,
    /** Another class: equal only to itself or its relatives. */
    OTHER,
    /** {@code Object} or an interface: only known per call. */
    UNKNOWN,
    NULL;

    static Category of(Class<?> type) {
      if (type == null) {
        return NULL;
      }
      Class<?> t = PropertyPath.boxed(type);
      if (Number.class.isAssignableFrom(t)) {
        return NUMBER;
      }
      if (CharSequence.class.isAssignableFrom(t) || t == Character.class) {
        return TEXT;
      }
      if (t == Boolean.class) {
        return BOOLEAN;
      }
      if (t.isEnum() || (Enum.class.isAssignableFrom(t) && t != Enum.class)) {
        return ENUM;
      }
      if (t == Object.class || t == Enum.class || t.isInterface()) {
        return UNKNOWN;
      }
      return OTHER;
    }

    boolean known() {
      return this != UNKNOWN && this != NULL;
    }
  }

  private ExpressionCompiler(
      AdvisedMethod method,
      CacheAnnotation annotation,
      Attribute attribute,
      String text,
      Class<?> resultType) {
    this.method = method;
    this.annotation = annotation;
    this.attribute = attribute;
    this.resultType = resultType;
    this.site =
        new ExpressionSite(
            method.description + ": " + AnnotationRules.describe(annotation, attribute, text));
  }

  /**
   * Compiles a key.
   *
   * @param key the parsed key, or {@code null} for all arguments
   * @param prefix put before the canonical key ({@code "users:"} makes routing keys), may be empty
   * @param resultType the type of {@code #result} (the cached value's class)
   * @param canonicalizer turns each key part into its canonical string
   * @throws KeyExpressionException naming the method, the expression and the position
   */
  static KeyExpression key(
      AdvisedMethod method,
      CacheAnnotation annotation,
      Expression key,
      String prefix,
      Class<?> resultType,
      KeyCanonicalizer canonicalizer) {
    if (key == null) {
      String shortName = MethodNames.shortName(method.method);
      String[] names = method.parameterDescriptions();
      return (args, result) -> prefix.concat(canonicalizer.arguments(args, shortName, names));
    }
    return new ExpressionCompiler(method, annotation, Attribute.KEY, annotation.key(), resultType)
        .compileKey(key, prefix, canonicalizer);
  }

  /**
   * Compiles a condition or an unless.
   *
   * @param parsed the parsed expression, or {@code null} for none
   * @return the condition, or {@code null} for none
   * @throws KeyExpressionException naming the method, the expression and the position
   */
  static Condition condition(
      AdvisedMethod method,
      CacheAnnotation annotation,
      Attribute attribute,
      Expression parsed,
      Class<?> resultType) {
    if (parsed == null) {
      return null;
    }
    String text = attribute == Attribute.UNLESS ? annotation.unless() : annotation.condition();
    return new ExpressionCompiler(method, annotation, attribute, text, resultType)
        .truthValue(parsed);
  }

  private KeyExpression compileKey(Expression key, String prefix, KeyCanonicalizer canonicalizer) {
    List<Expression> parts = key instanceof Concat c ? c.parts() : List.of(key);
    Term[] terms = new Term[parts.size()];
    for (int i = 0; i < terms.length; i++) {
      terms[i] = term(parts.get(i), canonicalizer);
    }
    if (terms.length == 1) {
      KeyExpression oneParameter = prefixedParameter(parts.get(0), prefix, canonicalizer);
      if (oneParameter != null) {
        return oneParameter;
      }
      Term only = terms[0];
      return prefix.isEmpty()
          ? only::evaluate
          : (args, result) -> prefix.concat(only.evaluate(args, result));
    }
    return (args, result) -> {
      StringBuilder routingKey = new StringBuilder(48).append(prefix);
      for (Term part : terms) {
        routingKey.append(part.evaluate(args, result));
      }
      return routingKey.toString();
    };
  }

  /**
   * The commonest key, {@code #id} (or {@code #p0}) with a cache prefix and the cache's own forms:
   * the cache makes the routing key from its prefix and the argument ({@link
   * InterceptedCache#key(Object, String)}), so a numeric or string id costs the key alone, with no
   * string of its form in between. Null for any other key.
   */
  private KeyExpression prefixedParameter(
      Expression part, String prefix, KeyCanonicalizer canonicalizer) {
    if (prefix.isEmpty()
        || canonicalizer != CanonicalKeyCanonicalizer.INSTANCE
        || !(part instanceof Reference ref)) {
      return null;
    }
    References.Target target = resolve(ref);
    if (target.kind() != References.Kind.PARAMETER || !target.properties().isEmpty()) {
      return null;
    }
    int at = target.parameter();
    String where = MethodNames.shortName(method.method) + "(" + method.parameterName(at) + ")";
    return new KeyExpression() {
      @Override
      public String evaluate(Object[] args, Object result) {
        return CanonicalKeys.prefixed(prefix, args[at], where);
      }

      @Override
      public RoutingKey routingKey(InterceptedCache cache, Object[] args, Object result) {
        return cache.key(args[at], where);
      }

      @Override
      public RoutingKey routingKeyOfOne(InterceptedCache cache, Object onlyArgument) {
        return cache.key(onlyArgument, where); // at is 0
      }

      @Override
      public RoutingKey routingKey(InterceptedCache cache, long onlyArgument) {
        return cache.key(onlyArgument);
      }
    };
  }

  private Term term(Expression part, KeyCanonicalizer canonicalizer) {
    if (part instanceof Text t) {
      String value = t.value();
      return (args, result) -> value;
    }
    Reference ref = (Reference) part;
    References.Target target = resolve(ref);
    String shortName = MethodNames.shortName(method.method);
    switch (target.kind()) {
      case ARGS:
        String[] names = method.parameterDescriptions();
        return (args, result) -> canonicalizer.arguments(args, shortName, names);
      case METHOD_NAME:
        String name = canonicalizer.canonical(method.method.getName(), shortName);
        return (args, result) -> name;
      case PARAMETER:
        if (target.properties().isEmpty()) {
          // the common key, #id: one array read, nothing between it and the canonical form
          int at = target.parameter();
          String where = shortName + "(" + method.parameterName(at) + ")";
          return (args, result) -> canonicalizer.canonical(args[at], where);
        }
        break;
      default:
        break;
    }
    Value value = reference(ref, target).value();
    String where = shortName + "(" + ref.path(ref.properties().size()).substring(1) + ")";
    return (args, result) -> canonicalizer.canonical(value.get(args, result), where);
  }

  private References.Target resolve(Reference ref) {
    try {
      return References.resolve(
          ref, method.shape(), AnnotationRules.resultUnavailable(annotation, attribute));
    } catch (ExpressionException e) {
      // the rules ran first, so this is only reached if the two disagree
      throw site.error(e.position(), e.reason());
    }
  }

  private Operand reference(Reference ref, References.Target target) {
    Value base;
    Class<?> type;
    switch (target.kind()) {
      case PARAMETER:
        int at = target.parameter();
        base = (args, result) -> args[at];
        type = method.method.getParameterTypes()[at];
        break;
      case RESULT:
        base = (args, result) -> result;
        type = resultType;
        break;
      case METHOD_NAME:
        String name = method.method.getName();
        base = (args, result) -> name;
        type = String.class;
        break;
      default:
        base = (args, result) -> args;
        type = Object[].class;
        break;
    }
    String description = ref.path(ref.properties().size());
    PropertyPath path = PropertyPath.compile(type, ref.path(0), target.properties(), site);
    Value value = path.isEmpty() ? base : (args, result) -> path.read(base.get(args, result));
    return new Operand(
        value, path.type, description + " (" + typeName(path.type) + ")", ref.start(), false, null);
  }

  /** A condition, or an operand of and/or/not: must be true or false. */
  private Condition truthValue(Expression e) {
    if (e instanceof Bool b) {
      boolean constant = b.value();
      return (args, result) -> constant;
    }
    if (e instanceof Not n) {
      Condition operand = truthValue(n.operand());
      return (args, result) -> !operand.test(args, result);
    }
    if (e instanceof And a) {
      Condition left = truthValue(a.left());
      Condition right = truthValue(a.right());
      return (args, result) -> left.test(args, result) && right.test(args, result);
    }
    if (e instanceof Or o) {
      Condition left = truthValue(o.left());
      Condition right = truthValue(o.right());
      return (args, result) -> left.test(args, result) || right.test(args, result);
    }
    if (e instanceof Comparison c) {
      return comparison(c);
    }
    // the parser lets only references through besides the above
    Reference ref = (Reference) e;
    Operand operand = reference(ref, resolve(ref));
    Category category = Category.of(operand.type());
    if (category != Category.BOOLEAN && category != Category.UNKNOWN) {
      throw site.error(
          ref.start(),
          operand.description()
              + " is not true or false; compare it, e.g. "
              + ref.path(ref.properties().size())
              + " != null");
    }
    Value value = operand.value();
    int position = ref.start();
    String description = operand.description();
    return (args, result) -> {
      Object v = value.get(args, result);
      if (v instanceof Boolean b) {
        return b;
      }
      throw site.error(
          position,
          description
              + " is "
              + (v == null ? "null" : "a " + v.getClass().getName())
              + ", not true or false");
    };
  }

  private Condition comparison(Comparison c) {
    Operand left = operand(c.left());
    Operand right = operand(c.right());
    Operator op = c.operator();
    if (op.orders()) {
      left = enumConstant(left, right);
      right = enumConstant(right, left);
      checkOrderable(c, left, right);
      Value l = left.value();
      Value r = right.value();
      String pair = left.description() + " and " + right.description();
      return (args, result) -> {
        Object a = l.get(args, result);
        Object b = r.get(args, result);
        Boolean holds = Comparisons.order(op, a, b);
        if (holds == null) {
          throw site.error(
              c.start(),
              "cannot order "
                  + pair
                  + ": a "
                  + a.getClass().getName()
                  + " and a "
                  + b.getClass().getName());
        }
        return holds;
      };
    }
    checkEquatable(c, left, right);
    left = enumConstant(left, right);
    right = enumConstant(right, left);
    Value l = left.value();
    Value r = right.value();
    boolean equal = op == Operator.EQ;
    return (args, result) -> Comparisons.equal(l.get(args, result), r.get(args, result)) == equal;
  }

  private Operand operand(Expression e) {
    if (e instanceof Text t) {
      return Operand.literal(
          t.value(), String.class, "the quoted literal '" + t.value() + "'", t.start());
    }
    if (e instanceof Numeral n) {
      return Operand.literal(
          number(n.value()),
          BigDecimal.class,
          "the number " + n.value().toPlainString(),
          n.start());
    }
    if (e instanceof Bool b) {
      return Operand.literal(b.value(), Boolean.class, String.valueOf(b.value()), b.start());
    }
    if (e instanceof Null) {
      return Operand.literal(null, null, "null", e.start());
    }
    if (e instanceof Reference ref) {
      return reference(ref, resolve(ref));
    }
    Condition nested = truthValue(e);
    return new Operand(
        (args, result) -> nested.test(args, result),
        Boolean.class,
        "a condition",
        e.start(),
        false,
        null);
  }

  /** Whole numbers as Long, so most comparisons with them never build a BigDecimal. */
  private static Object number(BigDecimal value) {
    BigDecimal whole = value.stripTrailingZeros();
    if (whole.scale() <= 0 && whole.toBigInteger().bitLength() < 64) {
      return whole.longValueExact();
    }
    return value;
  }

  private void checkOrderable(Comparison c, Operand left, Operand right) {
    for (Operand side : List.of(left, right)) {
      if (Category.of(side.type()) == Category.BOOLEAN) {
        throw site.error(
            c.start(), side.description() + " is true or false, which cannot be ordered");
      }
    }
    Category l = Category.of(left.type());
    Category r = Category.of(right.type());
    if (!l.known() || !r.known()) {
      return;
    }
    boolean orderable =
        (l == r && (l == Category.NUMBER || l == Category.TEXT))
            || (l == r
                && Comparable.class.isAssignableFrom(PropertyPath.boxed(left.type()))
                && related(left.type(), right.type()));
    if (!orderable) {
      throw site.error(
          c.start(), "cannot order " + left.description() + " and " + right.description());
    }
  }

  private void checkEquatable(Comparison c, Operand left, Operand right) {
    for (Operand[] pair : new Operand[][] {{left, right}, {right, left}}) {
      if (pair[0].type() != null && pair[0].type().isPrimitive() && pair[1].type() == null) {
        throw site.error(c.start(), pair[0].description() + " is never null");
      }
    }
    Category l = Category.of(left.type());
    Category r = Category.of(right.type());
    if (!l.known() || !r.known() || (l == Category.OTHER && r == Category.OTHER)) {
      return;
    }
    boolean enumAndText =
        (l == Category.ENUM && r == Category.TEXT) || (l == Category.TEXT && r == Category.ENUM);
    if (l != r && !enumAndText) {
      throw site.error(
          c.start(), "never equal: " + left.description() + " and " + right.description());
    }
  }

  /**
   * An enum compared with a quoted literal: the literal must name a constant, which then stands in
   * for it, so the comparison is by identity.
   */
  private Operand enumConstant(Operand literal, Operand other) {
    if (!literal.isLiteral()
        || !(literal.literal() instanceof String name)
        || Category.of(other.type()) != Category.ENUM) {
      return literal;
    }
    Class<?> type = other.type();
    while (!type.isEnum()) {
      type = type.getSuperclass(); // a constant with a body has an anonymous subclass
    }
    Object[] constants = type.getEnumConstants();
    for (Object constant : constants) {
      if (((Enum<?>) constant).name().equals(name)) {
        return Operand.literal(constant, type, literal.description(), literal.start());
      }
    }
    throw site.error(
        literal.start(),
        "'"
            + name
            + "' is not a constant of "
            + type.getSimpleName()
            + "; constants are: "
            + Arrays.stream(constants)
                .map(k -> ((Enum<?>) k).name())
                .collect(Collectors.joining(", ")));
  }

  private static boolean related(Class<?> a, Class<?> b) {
    Class<?> x = PropertyPath.boxed(a);
    Class<?> y = PropertyPath.boxed(b);
    return x.isAssignableFrom(y) || y.isAssignableFrom(x);
  }

  private static String typeName(Class<?> type) {
    return type.isArray() ? type.getComponentType().getSimpleName() + "[]" : type.getSimpleName();
  }
}
