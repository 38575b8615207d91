package io.github.chash.cache;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.UndeclaredThrowableException;
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

  private RecordComponents(RecordComponent[] declared) {
    all = new Component[declared.length];
    for (int i = 0; i < declared.length; i++) {
      all[i] = new Component(declared[i].getAccessor());
    }
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
     * Reads an {@link #integral} component (null for any other): a function made beside the record
     * ({@link #longFunction}) or, where chash may not make one, {@link ThroughHandle}.
     */
    private final ToLongFunction<Object> longReader;

    /** Reads any other component (null for an integral one), as {@link #longReader} does. */
    private final Function<Object, Object> reader;

    private Component(Method accessor) {
      name = accessor.getName();
      owner = accessor.getDeclaringClass();
      Class<?> type = accessor.getReturnType();
      integral =
          type == long.class || type == int.class || type == short.class || type == byte.class;
      if (integral) {
        ToLongFunction<Object> made = longFunction(accessor);
        longReader = made != null ? made : new ThroughHandle(handle(accessor, true));
        reader = null;
      } else {
        Function<Object, Object> made = function(accessor);
        reader = made != null ? made : new ThroughHandle(handle(accessor, false));
        longReader = null;
      }
    }

    /** The value of a component that is not {@link #integral} of {@code record}. */
    Object read(Record record) {
      try {
        return reader.apply(record);
      } catch (RuntimeException | Error e) {
        throw unreadable(e);
      }
    }

    /** The value of an {@link #integral} component of {@code record}. */
    long readLong(Record record) {
      try {
        return longReader.applyAsLong(record);
      } catch (RuntimeException | Error e) {
        throw unreadable(e);
      }
    }

    private IllegalStateException unreadable(Throwable e) {
      Throwable cause = e instanceof UndeclaredThrowableException u ? u.getCause() : e;
      cause = cause instanceof InvocationTargetException t ? t.getCause() : cause;
      return new IllegalStateException(
          "cannot read record component " + name + " of " + owner.getName(), cause);
    }

    /**
     * An integral accessor as a {@code ToLongFunction} made beside the record (a hidden class,
     * which the JIT inlines where one record type is read, as it does not a method handle held in a
     * field), or null where chash may not make one: see {@link #beside}.
     */
    static ToLongFunction<Object> longFunction(Method accessor) {
      return beside(accessor, ToLongFunction.class, "applyAsLong", AS_LONG, long.class);
    }

    /**
     * Any other accessor as a {@code Function} made beside the record, as {@link #longFunction}.
     */
    static Function<Object, Object> function(Method accessor) {
      return beside(accessor, Function.class, "apply", AS_OBJECT, accessor.getReturnType());
    }

    /**
     * The accessor as an instance of the functional interface {@code type} made by {@link
     * LambdaMetafactory} in the record's class, or null where that is not allowed: a record's
     * package that is not open to chash, or in a module other than chash's (the factory needs the
     * full privileges of the record's lookup).
     */
    @SuppressWarnings("unchecked")
    private static <F> F beside(
        Method accessor, Class<?> type, String method, MethodType erased, Class<?> returned) {
      Class<?> recordClass = accessor.getDeclaringClass();
      try {
        MethodHandles.Lookup in =
            MethodHandles.privateLookupIn(recordClass, MethodHandles.lookup());
        if (!in.hasFullPrivilegeAccess()) {
          return null;
        }
        return (F)
            LambdaMetafactory.metafactory(
                    in,
                    method,
                    MethodType.methodType(type),
                    erased,
                    in.unreflect(accessor),
                    MethodType.methodType(returned, recordClass))
                .getTarget()
                .invoke();
      } catch (Throwable e) {
        return null; // read through a handle instead
      }
    }

    /**
     * Reads a component through its {@link #handle}, where no function can be made beside the
     * record; what the handle throws reaches {@link #unreadable} as it is, or undeclared.
     */
    record ThroughHandle(MethodHandle handle)
        implements ToLongFunction<Object>, Function<Object, Object> {
      @Override
      public long applyAsLong(Object record) {
        try {
          return (long) handle.invokeExact(record);
        } catch (Throwable e) {
          throw e instanceof RuntimeException r ? r : new UndeclaredThrowableException(e);
        }
      }

      @Override
      public Object apply(Object record) {
        try {
          return (Object) handle.invokeExact(record);
        } catch (Throwable e) {
          throw e instanceof RuntimeException r ? r : new UndeclaredThrowableException(e);
        }
      }
    }

    /**
     * The accessor as a handle; where this module may not access it directly (a record of a named
     * module that does not open its package to chash), a handle on {@code Method.invoke}, which
     * succeeds for a public record of an exported package and otherwise fails as reflection does.
     */
    private static MethodHandle handle(Method accessor, boolean integral) {
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
