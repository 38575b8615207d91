package io.github.chash.aspect.internal;

import io.github.chash.cache.ValueType;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** How a method's result maps to the cached value. */
enum ReturnKind {
  /** The result itself is cached. */
  PLAIN,
  /** The content of an {@code Optional} is cached; empty counts as null. */
  OPTIONAL,
  /** The value a {@code CompletableFuture}/{@code CompletionStage} completes with is cached. */
  FUTURE;

  static ReturnKind of(Method method) {
    Class<?> type = method.getReturnType();
    if (type == Optional.class) {
      return OPTIONAL;
    }
    if (type == CompletableFuture.class || type == CompletionStage.class) {
      return FUTURE;
    }
    return PLAIN;
  }

  /** The type of the cached value, for remote nodes' codecs. */
  ValueType valueType(Method method) {
    Type type = method.getGenericReturnType();
    if (this == PLAIN) {
      Class<?> raw = method.getReturnType();
      return raw.isPrimitive() ? ValueType.of(boxed(raw)) : ValueType.of(type);
    }
    if (type instanceof ParameterizedType p) {
      return ValueType.of(p.getActualTypeArguments()[0]);
    }
    return ValueType.OBJECT;
  }

  private static Class<?> boxed(Class<?> primitive) {
    return MethodType.methodType(primitive).wrap().returnType();
  }
}
