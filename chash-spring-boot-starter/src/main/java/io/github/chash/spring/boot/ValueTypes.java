package io.github.chash.spring.boot;

import java.io.Serializable;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/**
 * The value type a cached method's return type declares, and whether JDK serialization can write
 * it: the rule that decides which caches the starter stores as JSON.
 */
final class ValueTypes {
  /** What Spring caches of a method that returns one of these: the type argument. */
  private static final Set<String> UNWRAPPED =
      Set.of(
          Optional.class.getName(),
          CompletionStage.class.getName(),
          Future.class.getName(),
          java.util.concurrent.CompletableFuture.class.getName(),
          "reactor.core.publisher.Mono");

  /** Spring caches a Flux as the list of its elements. */
  private static final String FLUX = "reactor.core.publisher.Flux";

  private ValueTypes() {}

  /**
   * {@return the type of the values Spring caches for a method of this generic return type, or null
   * when there are none ({@code void})} A {@code CompletableFuture<T>}, {@code Optional<T>} or
   * {@code Mono<T>} caches {@code T}; a {@code Flux<T>} a {@code List<T>}.
   */
  static Type cached(Type returnType) {
    if (returnType == void.class || returnType == Void.class) {
      return null;
    }
    if (returnType instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
      Type argument = p.getActualTypeArguments()[0];
      if (UNWRAPPED.contains(raw.getName())) {
        return cached(argument);
      }
      if (raw.getName().equals(FLUX)) {
        return new ListOf(argument);
      }
    }
    return returnType;
  }

  /**
   * {@return whether JDK serialization can write values of a declared type, as far as the
   * declaration tells} Primitives, {@code Serializable} classes, and the JDK's collection
   * interfaces ({@code List}, {@code Map}, ...) whose implementations are serializable, all with
   * type arguments that are too. {@code Object}, type variables and wildcards say nothing and count
   * as writable: their values are stored as they are, and one that cannot be is refused at run time
   * (counted, and shown in health).
   */
  static boolean jdkWritable(Type type) {
    if (type instanceof Class<?> c) {
      if (c.isPrimitive() || c == Object.class) {
        return true;
      }
      if (c.isArray()) {
        return jdkWritable(c.getComponentType());
      }
      return Serializable.class.isAssignableFrom(c)
          || ((c.isInterface() || Modifier.isAbstract(c.getModifiers()))
              && c.getName().startsWith("java."));
    }
    if (type instanceof ParameterizedType p) {
      if (!jdkWritable(p.getRawType())) {
        return false;
      }
      for (Type argument : p.getActualTypeArguments()) {
        if (!jdkWritable(argument)) {
          return false;
        }
      }
      return true;
    }
    if (type instanceof GenericArrayType g) {
      return jdkWritable(g.getGenericComponentType());
    }
    if (type instanceof WildcardType w) {
      return jdkWritable(w.getUpperBounds()[0]);
    }
    return true; // a type variable: the declaration says nothing
  }

  /** {@code List<T>}: what Spring caches for a {@code Flux<T>}. */
  private record ListOf(Type element) implements ParameterizedType {
    @Override
    public Type[] getActualTypeArguments() {
      return new Type[] {element};
    }

    @Override
    public Type getRawType() {
      return List.class;
    }

    @Override
    public Type getOwnerType() {
      return null;
    }

    @Override
    public String getTypeName() {
      return "java.util.List<" + element.getTypeName() + ">";
    }
  }
}
