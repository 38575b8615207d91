package io.github.chash.aspect.internal;

import java.lang.reflect.Method;
import java.util.StringJoiner;

/** Short, readable method descriptions for messages: {@code OrderService.find(String)}. */
public final class MethodNames {
  private MethodNames() {}

  /**
   * {@return {@code SimpleClass.method(ParamType, ...)}}
   *
   * @param method the method
   */
  public static String describe(Method method) {
    StringJoiner params = new StringJoiner(", ", "(", ")");
    for (Class<?> type : method.getParameterTypes()) {
      params.add(type.getSimpleName());
    }
    return simpleName(method.getDeclaringClass()) + "." + method.getName() + params;
  }

  /**
   * {@return {@code SimpleClass.method}, to which callers append their own parentheses}
   *
   * @param method the method
   */
  public static String shortName(Method method) {
    return simpleName(method.getDeclaringClass()) + "." + method.getName();
  }

  private static String simpleName(Class<?> type) {
    String simple = type.getSimpleName();
    if (!simple.isEmpty()) {
      return simple;
    }
    String name = type.getName();
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
