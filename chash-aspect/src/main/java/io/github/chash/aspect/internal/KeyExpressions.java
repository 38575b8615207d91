package io.github.chash.aspect.internal;

import io.github.chash.internal.keys.KeyExpressionParser;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Compiles key expressions, once per method.
 *
 * <p>Grammar (read by the runtime's {@link KeyExpressionParser}, shared with the Maven plugin's
 * check): {@code expr := term ('+' term)*}; {@code term := '#' name ('.' property)* | quoted
 * literal}. {@code #name} is a parameter by name (needs {@code -parameters}), {@code #p0}/{@code
 * #a0} a parameter by index; a property is read through a getter ({@code getId()}, {@code isId()}),
 * a no-argument method of the same name (record components) or a public field. Literals are in
 * single quotes, {@code ''} standing for one quote. Positions in messages are 1-based columns.
 *
 * <p>Properties are resolved on the parameter's declared type at compile time; when the declared
 * type lacks the property but a subclass could have it, it is resolved on each argument's class and
 * cached per class.
 */
public final class KeyExpressions {
  private KeyExpressions() {}

  /**
   * Compiles the key of a method; an empty expression means all arguments, canonically joined.
   *
   * @param method the annotated method
   * @param expression the annotation's key, may be empty
   * @param prefix put before the canonical key ({@code "users:"} makes routing keys), may be empty
   * @param canonicalizer turns each key part into its canonical string
   * @throws KeyExpressionException naming the method, the expression and the position
   */
  public static KeyExpression compile(
      Method method, String expression, String prefix, KeyCanonicalizer canonicalizer) {
    String methodName = MethodNames.describe(method);
    if (expression.isEmpty()) {
      return allArguments(method, methodName, prefix, canonicalizer);
    }
    return new Parser(method, methodName, expression, prefix, canonicalizer).parse();
  }

  private static KeyExpression allArguments(
      Method method, String methodName, String prefix, KeyCanonicalizer canonicalizer) {
    Parameter[] parameters = method.getParameters();
    String[] names = new String[parameters.length];
    for (int i = 0; i < parameters.length; i++) {
      names[i] = describe(parameters[i], i);
    }
    String shortName = MethodNames.shortName(method);
    return args -> prefix.concat(canonicalizer.arguments(args, shortName, names));
  }

  private static String describe(Parameter parameter, int index) {
    return parameter.isNamePresent() ? parameter.getName() : "#p" + index;
  }

  /** One part of an expression: a literal or a parameter with an optional property path. */
  private interface Term {
    String evaluate(Object[] args);
  }

  /** Turns the parts the shared parser reads into terms, resolving parameters and properties. */
  private static final class Parser implements KeyExpressionParser.Listener {
    private final Method method;
    private final String methodName;
    private final String shortName;
    private final String text;
    private final String prefix;
    private final KeyCanonicalizer canonicalizer;
    private final List<Term> terms = new ArrayList<>();
    // the parameter being read, until the next term or the end: its index, property steps,
    // current type, "#name.prop" path and description for messages; null path between terms
    private int argument;
    private List<Step> steps;
    private Class<?> valueType;
    private StringBuilder propertyPath;
    private String where;

    Parser(
        Method method,
        String methodName,
        String text,
        String prefix,
        KeyCanonicalizer canonicalizer) {
      this.method = method;
      this.methodName = methodName;
      this.shortName = MethodNames.shortName(method);
      this.text = text;
      this.prefix = prefix;
      this.canonicalizer = canonicalizer;
    }

    KeyExpression parse() {
      KeyExpressionParser.parse(text, this);
      finishParameter();
      if (terms.size() == 1) {
        Term only = terms.get(0);
        return prefix.isEmpty() ? only::evaluate : args -> prefix.concat(only.evaluate(args));
      }
      Term[] parts = terms.toArray(new Term[0]);
      return args -> {
        StringBuilder key = new StringBuilder(48).append(prefix);
        for (Term part : parts) {
          key.append(part.evaluate(args));
        }
        return key.toString();
      };
    }

    @Override
    public void literal(String value, int start) {
      finishParameter();
      terms.add(args -> value);
    }

    @Override
    public void parameter(String name, int start) {
      finishParameter();
      argument = parameterIndex(start, name);
      Parameter parameter = method.getParameters()[argument];
      propertyPath = new StringBuilder("#").append(name);
      where = shortName + "(" + describe(parameter, argument) + ")";
      steps = new ArrayList<>();
      valueType = parameter.getType();
    }

    @Override
    public void property(String name, int start) {
      Step step = resolve(valueType, name, start, propertyPath.toString());
      steps.add(step);
      valueType = step.resultType();
      propertyPath.append('.').append(name);
      where = shortName + "(" + propertyPath.substring(1) + ")";
    }

    private void finishParameter() {
      if (propertyPath == null) {
        return;
      }
      propertyPath = null;
      int at = argument;
      String description = where;
      if (steps.isEmpty()) {
        terms.add(args -> canonicalizer.canonical(args[at], description));
        return;
      }
      Step[] path0 = steps.toArray(new Step[0]);
      terms.add(
          args -> {
            Object value = args[at];
            for (Step step : path0) {
              value = step.read(value);
            }
            return canonicalizer.canonical(value, description);
          });
    }

    private int parameterIndex(int start, String name) {
      Parameter[] parameters = method.getParameters();
      for (int i = 0; i < parameters.length; i++) {
        if (parameters[i].isNamePresent() && parameters[i].getName().equals(name)) {
          return i;
        }
      }
      if (name.length() > 1 && (name.charAt(0) == 'p' || name.charAt(0) == 'a')) {
        String digits = name.substring(1);
        if (digits.chars().allMatch(Character::isDigit) && digits.length() < 6) {
          int index = Integer.parseInt(digits);
          if (index < parameters.length) {
            return index;
          }
          throw error(
              start,
              "no parameter #"
                  + name
                  + "; the method has "
                  + parameters.length
                  + " parameter"
                  + (parameters.length == 1 ? "" : "s")
                  + (parameters.length == 0
                      ? ""
                      : parameters.length == 1
                          ? " (#p0)"
                          : " (#p0 to #p" + (parameters.length - 1) + ")"));
        }
      }
      if (parameters.length == 0) {
        throw error(start, "no parameter named " + name + "; the method has no parameters");
      }
      if (!parameters[0].isNamePresent()) {
        throw error(
            start,
            "no parameter named "
                + name
                + "; parameter names are not in the class file: compile with -parameters"
                + " (maven-compiler-plugin <parameters>true</parameters>) or use "
                + (parameters.length == 1 ? "#p0" : "#p0 to #p" + (parameters.length - 1)));
      }
      StringJoiner names = new StringJoiner(", ");
      for (Parameter p : parameters) {
        names.add(p.getName());
      }
      throw error(start, "no parameter named " + name + "; parameters are: " + names);
    }

    private Step resolve(Class<?> declared, String property, int position, String path) {
      Class<?> type =
          declared.isPrimitive() ? MethodType.methodType(declared).wrap().returnType() : declared;
      Accessor accessor = Accessor.find(type, property);
      if (accessor != null) {
        return new StaticStep(accessor, position, path, property, this);
      }
      if (Modifier.isFinal(type.getModifiers()) || type.isArray()) {
        throw error(
            position,
            "no property " + property + " on " + type.getName() + Accessor.lookedFor(property));
      }
      return new DynamicStep(property, position, path, this);
    }

    @Override
    public KeyExpressionException error(int start, String message) {
      return new KeyExpressionException(
          methodName
              + ": key expression \""
              + text
              + "\" at position "
              + (start + 1)
              + ": "
              + message);
    }
  }

  /** Reads one property of a value. */
  private abstract static class Step {
    final int position;
    final String path;
    final String property;
    final Parser parser;

    Step(int position, String path, String property, Parser parser) {
      this.position = position;
      this.path = path;
      this.property = property;
      this.parser = parser;
    }

    abstract Class<?> resultType();

    abstract Object read(Object target);

    KeyExpressionException nullTarget() {
      return parser.error(position, path + " is null, so its " + property + " cannot be read");
    }
  }

  private static final class StaticStep extends Step {
    private final Accessor accessor;

    StaticStep(Accessor accessor, int position, String path, String property, Parser parser) {
      super(position, path, property, parser);
      this.accessor = accessor;
    }

    @Override
    Class<?> resultType() {
      return accessor.resultType;
    }

    @Override
    Object read(Object target) {
      if (target == null) {
        throw nullTarget();
      }
      return accessor.read(target);
    }
  }

  /** A property the declared type lacks: resolved on each argument's class, cached per class. */
  private static final class DynamicStep extends Step {
    private final ClassValue<Accessor> accessors =
        new ClassValue<>() {
          @Override
          protected Accessor computeValue(Class<?> type) {
            return Accessor.find(type, property);
          }
        };

    DynamicStep(String property, int position, String path, Parser parser) {
      super(position, path, property, parser);
    }

    @Override
    Class<?> resultType() {
      return Object.class;
    }

    @Override
    Object read(Object target) {
      if (target == null) {
        throw nullTarget();
      }
      Accessor accessor = accessors.get(target.getClass());
      if (accessor == null) {
        throw parser.error(
            position,
            "no property "
                + property
                + " on "
                + target.getClass().getName()
                + Accessor.lookedFor(property));
      }
      return accessor.read(target);
    }
  }

  /** A getter, record component accessor or public field, as a handle of type (Object)Object. */
  private static final class Accessor {
    private static final MethodType OBJECT_TO_OBJECT =
        MethodType.methodType(Object.class, Object.class);
    final MethodHandle handle;
    final Class<?> resultType;

    private Accessor(MethodHandle handle, Class<?> resultType) {
      this.handle = handle.asType(OBJECT_TO_OBJECT);
      this.resultType = resultType;
    }

    Object read(Object target) {
      try {
        return handle.invokeExact(target);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("reading a key property failed: " + t, t);
      }
    }

    static String lookedFor(String property) {
      String cap = Character.toUpperCase(property.charAt(0)) + property.substring(1);
      return " (looked for public get"
          + cap
          + "(), is"
          + cap
          + "(), "
          + property
          + "() and a public field "
          + property
          + ")";
    }

    static Accessor find(Class<?> type, String property) {
      String cap = Character.toUpperCase(property.charAt(0)) + property.substring(1);
      Method method = noArgMethod(type, "get" + cap);
      if (method == null) {
        method = noArgMethod(type, "is" + cap);
        if (method != null
            && method.getReturnType() != boolean.class
            && method.getReturnType() != Boolean.class) {
          method = null;
        }
      }
      if (method == null) {
        method = noArgMethod(type, property);
      }
      try {
        if (method != null) {
          method.trySetAccessible();
          return new Accessor(MethodHandles.lookup().unreflect(method), method.getReturnType());
        }
        Field field = type.getField(property);
        if (Modifier.isStatic(field.getModifiers())) {
          return null;
        }
        field.trySetAccessible();
        return new Accessor(MethodHandles.lookup().unreflectGetter(field), field.getType());
      } catch (NoSuchFieldException e) {
        return null;
      } catch (IllegalAccessException e) {
        throw new KeyExpressionException(
            "property "
                + property
                + " of "
                + type.getName()
                + " is not accessible: "
                + e.getMessage(),
            e);
      }
    }

    private static Method noArgMethod(Class<?> type, String name) {
      try {
        Method method = type.getMethod(name);
        if (method.getReturnType() == void.class || Modifier.isStatic(method.getModifiers())) {
          return null;
        }
        return method;
      } catch (NoSuchMethodException e) {
        return null;
      }
    }
  }
}
