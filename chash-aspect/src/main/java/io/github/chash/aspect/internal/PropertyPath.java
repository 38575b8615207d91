package io.github.chash.aspect.internal;

import io.github.chash.internal.keys.Expression.Property;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * Reads a property path ({@code #user.address.city}) off a value, with handles resolved once.
 *
 * <p>A property is a public getter ({@code getId()}, {@code isActive()} for booleans), a record
 * component ({@code id()}) or a public instance field; nothing else is called, so an expression
 * cannot run arbitrary methods. Each step is resolved on the declared type at compile time; when
 * that type lacks the property but a subclass could have it, it is resolved on each value's class
 * and cached per class. Thread-safe.
 */
final class PropertyPath {
  private final Step[] steps;

  /**
   * The declared type of what the path reads, primitive if so declared ({@code Object} when only
   * known per call).
   */
  final Class<?> type;

  private PropertyPath(Step[] steps, Class<?> type) {
    this.steps = steps;
    this.type = type;
  }

  /**
   * Resolves a path.
   *
   * @param start the declared type of the value the path starts from
   * @param root the reference the path starts from, for messages: {@code #user}
   * @param properties the steps
   * @param site where the expression is, for messages
   * @throws KeyExpressionException if a type that cannot have subclasses lacks a property
   */
  static PropertyPath compile(
      Class<?> start, String root, List<Property> properties, ExpressionSite site) {
    Step[] steps = new Step[properties.size()];
    Class<?> type = start;
    StringBuilder path = new StringBuilder(root);
    for (int i = 0; i < steps.length; i++) {
      Property property = properties.get(i);
      steps[i] = resolve(boxed(type), property, path.toString(), site);
      type = steps[i].resultType();
      path.append('.').append(property.name());
    }
    return new PropertyPath(steps, type);
  }

  /** Whether the path has no steps (the value itself). */
  boolean isEmpty() {
    return steps.length == 0;
  }

  /**
   * Reads the path.
   *
   * @throws KeyExpressionException if a step meets a null or a class without the property
   */
  Object read(Object value) {
    for (Step step : steps) {
      value = step.read(value);
    }
    return value;
  }

  static Class<?> boxed(Class<?> type) {
    return type.isPrimitive() ? MethodType.methodType(type).wrap().returnType() : type;
  }

  private static Step resolve(Class<?> type, Property property, String path, ExpressionSite site) {
    Accessor accessor = Accessor.find(type, property.name(), site, property.start());
    if (accessor != null) {
      return new StaticStep(accessor, property, path, site);
    }
    if (Modifier.isFinal(type.getModifiers()) || type.isArray() || type.isRecord()) {
      throw site.error(
          property.start(),
          "no property "
              + property.name()
              + " on "
              + type.getName()
              + Accessor.lookedFor(property.name()));
    }
    return new DynamicStep(property, path, site);
  }

  /** Reads one property of a value. */
  private abstract static class Step {
    final Property property;
    final String path;
    final ExpressionSite site;

    Step(Property property, String path, ExpressionSite site) {
      this.property = property;
      this.path = path;
      this.site = site;
    }

    abstract Class<?> resultType();

    abstract Object read(Object target);

    KeyExpressionException nullTarget() {
      return site.error(
          property.start(), path + " is null, so its " + property.name() + " cannot be read");
    }
  }

  private static final class StaticStep extends Step {
    private final Accessor accessor;

    StaticStep(Accessor accessor, Property property, String path, ExpressionSite site) {
      super(property, path, site);
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

  /** A property the declared type lacks: resolved on each value's class, cached per class. */
  private static final class DynamicStep extends Step {
    private final ClassValue<Accessor> accessors =
        new ClassValue<>() {
          @Override
          protected Accessor computeValue(Class<?> type) {
            return Accessor.find(type, property.name(), site, property.start());
          }
        };

    DynamicStep(Property property, String path, ExpressionSite site) {
      super(property, path, site);
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
        throw site.error(
            property.start(),
            "no property "
                + property.name()
                + " on "
                + target.getClass().getName()
                + Accessor.lookedFor(property.name()));
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
      String cap = capitalized(property);
      return " (looked for public get"
          + cap
          + "(), is"
          + cap
          + "(), a record component "
          + property
          + " and a public field "
          + property
          + ")";
    }

    static Accessor find(Class<?> type, String property, ExpressionSite site, int position) {
      String cap = capitalized(property);
      Method method = getter(type, "get" + cap);
      if (method == null) {
        method = getter(type, "is" + cap);
        if (method != null
            && method.getReturnType() != boolean.class
            && method.getReturnType() != Boolean.class) {
          method = null;
        }
      }
      if (method == null) {
        method = recordComponent(type, property);
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
        KeyExpressionException error =
            site.error(
                position, "property " + property + " of " + type.getName() + " is not accessible");
        error.initCause(e);
        throw error;
      }
    }

    private static Method recordComponent(Class<?> type, String name) {
      if (!type.isRecord()) {
        return null;
      }
      for (RecordComponent c : type.getRecordComponents()) {
        if (c.getName().equals(name)) {
          return c.getAccessor();
        }
      }
      return null;
    }

    private static Method getter(Class<?> type, String name) {
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

    private static String capitalized(String property) {
      return Character.toUpperCase(property.charAt(0)) + property.substring(1);
    }
  }
}
