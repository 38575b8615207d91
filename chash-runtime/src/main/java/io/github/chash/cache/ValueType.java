package io.github.chash.cache;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Objects;

/**
 * The type a remote node decodes a value to: a method's generic return type such as {@code
 * List<Order>}. Create one per method, once, and reuse it on every call.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ValueType {
  /** Any object: for callers that do not know the type (local nodes never need it). */
  public static final ValueType OBJECT = new ValueType(Object.class, Object.class);

  private final Type type;
  private final Class<?> rawClass;

  private ValueType(Type type, Class<?> rawClass) {
    this.type = type;
    this.rawClass = rawClass;
  }

  /**
   * {@return the value type of a class}
   *
   * @param type the type
   * @throws NullPointerException if {@code type} is null
   */
  public static ValueType of(Class<?> type) {
    return new ValueType(Objects.requireNonNull(type, "type"), type);
  }

  /**
   * {@return the value type of a generic type, such as {@link
   * java.lang.reflect.Method#getGenericReturnType()}}
   *
   * @param type the type
   * @throws NullPointerException if {@code type} is null
   */
  public static ValueType of(Type type) {
    Objects.requireNonNull(type, "type");
    return new ValueType(type, rawClassOf(type));
  }

  /** {@return the full generic type} */
  public Type type() {
    return type;
  }

  /** {@return the erasure of {@link #type()}} */
  public Class<?> rawClass() {
    return rawClass;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ValueType other && type.equals(other.type);
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public String toString() {
    return type.getTypeName();
  }

  private static Class<?> rawClassOf(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return rawClassOf(p.getRawType());
    }
    if (type instanceof GenericArrayType g) {
      return rawClassOf(g.getGenericComponentType()).arrayType();
    }
    if (type instanceof TypeVariable<?> v) {
      return rawClassOf(v.getBounds()[0]);
    }
    if (type instanceof WildcardType w) {
      return rawClassOf(w.getUpperBounds()[0]);
    }
    return Object.class;
  }
}
