package io.github.chash.cache;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A record class's components, in declaration order, each read through a function or a method
 * handle made once per class: no argument array and no reflective access check per call, and an
 * integral primitive component ({@code long}, {@code int}, {@code short}, {@code byte}) read as a
 * {@code long}, so a record key's canonical form boxes nothing for it.
 */
final class RecordComponents {
  private static final ClassValue<RecordComponents> OF_CLASS =
      new ClassValue<>() {
        @Override
        protected RecordComponents computeValue(Class<?> type) {
          return new RecordComponents(type.getRecordComponents());
        }
      };

  /**
   * The classes a {@link #flat} record's non-primitive components may be declared as: final, so a
   * value is one of them or null.
   */
  private static final Set<Class<?>> FLAT_TYPES =
      Set.of(String.class, Long.class, Integer.class, Short.class, Byte.class);

  private static final MethodType AS_OBJECT = MethodType.methodType(Object.class, Object.class);
  private static final MethodType AS_LONG = MethodType.methodType(long.class, Object.class);
  private static final Object[] NO_ARGUMENTS = {};

  /**
   * {@code Method.invoke(Object, Object...)}, for accessors this module may not call directly; from
   * a full-privilege lookup, since {@code invoke} is caller-sensitive.
   */
  private static final MethodHandle INVOKE;

  static {
    try {
      INVOKE =
          MethodHandles.lookup()
              .findVirtual(
                  Method.class,
                  "invoke",
                  MethodType.methodType(Object.class, Object.class, Object[].class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The components in declaration order. */
  final Component[] all;

  /**
   * Whether every component is an integral primitive or declared {@code String}, {@code Long},
   * {@code Integer}, {@code Short} or {@code Byte}: the record's form is then digits, escaped text
   * and {@code null}s alone, which {@link CanonicalKeys#putFlatRecord} writes into a char array
   * without a builder.
   */
  final boolean flat;

  private RecordComponents(RecordComponent[] declared) {
    all = new Component[declared.length];
    boolean allFlat = true;
    for (int i = 0; i < declared.length; i++) {
      all[i] = new Component(declared[i].getAccessor());
      allFlat &= all[i].integral || FLAT_TYPES.contains(declared[i].getType());
    }
    flat = allFlat;
  }

  /** {@return the components of a record class} */
  static RecordComponents of(Class<?> recordClass) {
    return OF_CLASS.get(recordClass);
  }

  /** One component: its name and how to read it. */
  static final class Component {
    final String name;

    /** Whether {@link #readLong} reads it: an integral primitive. */
    final boolean integral;

    private final Class<?> owner;

    /**
     * The accessor as a function of the record's own (a hidden class beside it, which the JIT
     * inlines where one record type is read, as a method handle that is not a constant it does
     * not): a {@code ToLongFunction} when {@link #integral}, else a {@code Function}; null where
     * chash may not define one (a record of another named module), which {@link #reader} reads.
     */
    private final Object function;

    /** {@code (Object)long} when {@link #integral}, else {@code (Object)Object}. */
    private final MethodHandle reader;

    private Component(Method accessor) {
      name = accessor.getName();
      owner = accessor.getDeclaringClass();
      Class<?> type = accessor.getReturnType();
      integral =
          type == long.class || type == int.class || type == short.class || type == byte.class;
      function = function(accessor, integral);
      reader = function == null ? reader(accessor, integral) : null;
    }

    /** The component's value of {@code record}; boxed if primitive. */
    @SuppressWarnings("unchecked")
    Object read(Record record) {
      try {
        return function != null
            ? ((Function<Object, Object>) function).apply(record)
            : (Object) reader.invokeExact((Object) record);
      } catch (Throwable e) {
        throw unreadable(e);
      }
    }

    /** The value of an {@link #integral} component of {@code record}. */
    @SuppressWarnings("unchecked")
    long readLong(Record record) {
      try {
        return function != null
            ? ((ToLongFunction<Object>) function).applyAsLong(record)
            : (long) reader.invokeExact((Object) record);
      } catch (Throwable e) {
        throw unreadable(e);
      }
    }

    private IllegalStateException unreadable(Throwable e) {
      Throwable cause = e instanceof InvocationTargetException t ? t.getCause() : e;
      return new IllegalStateException(
          "cannot read record component " + name + " of " + owner.getName(), cause);
    }

    /**
     * The accessor as a {@code ToLongFunction<Object>} (integral) or {@code Function<Object,
     * Object>} made by {@link LambdaMetafactory} in the record's class, or null where that is not
     * allowed: a record's package that is not open to chash, or in a module other than chash's (the
     * factory needs the full privileges of the record's lookup).
     */
    static Object function(Method accessor, boolean integral) {
      Class<?> recordClass = accessor.getDeclaringClass();
      try {
        MethodHandles.Lookup in =
            MethodHandles.privateLookupIn(recordClass, MethodHandles.lookup());
        if (!in.hasFullPrivilegeAccess()) {
          return null;
        }
        Class<?> returned = integral ? long.class : accessor.getReturnType();
        return LambdaMetafactory.metafactory(
                in,
                integral ? "applyAsLong" : "apply",
                MethodType.methodType(integral ? ToLongFunction.class : Function.class),
                integral ? AS_LONG : AS_OBJECT,
                in.unreflect(accessor),
                MethodType.methodType(returned, recordClass))
            .getTarget()
            .invoke();
      } catch (Throwable e) {
        return null; // read through a handle instead
      }
    }

    /**
     * The accessor as a handle; where this module may not access it directly (a record of a named
     * module that does not open its package to chash), a handle on {@code Method.invoke}, which
     * succeeds for a public record of an exported package and otherwise fails as reflection does.
     */
    private static MethodHandle reader(Method accessor, boolean integral) {
      try {
        accessor.setAccessible(true);
      } catch (RuntimeException e) {
        // a public accessor of an exported record works without it
      }
      MethodHandle direct;
      try {
        direct = MethodHandles.lookup().unreflect(accessor);
      } catch (IllegalAccessException e) {
        return reflective(accessor, integral);
      }
      return direct.asType(integral ? AS_LONG : AS_OBJECT);
    }

    static MethodHandle reflective(Method accessor, boolean integral) {
      MethodHandle boxed =
          MethodHandles.insertArguments(INVOKE.bindTo(accessor), 1, (Object) NO_ARGUMENTS);
      // Method.invoke returns a primitive boxed: unbox it (an Integer to int), then widen to long
      return integral
          ? boxed
              .asType(MethodType.methodType(accessor.getReturnType(), Object.class))
              .asType(AS_LONG)
          : boxed;
    }
  }
}
