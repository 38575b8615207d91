package io.github.chash.aspect.internal;

import java.lang.reflect.Method;
import java.util.StringJoiner;

/** Short, readable method descriptions for messages: {@code OrderService.find(String)}. */
public final class MethodNames {
  private MethodNames() {}

  /** Returns {@code SimpleClass.method(ParamType, ...)}. */
  public static String describe(Method method) {
    StringJoiner params = new StringJoiner(", ", "(", ")");
    for (Class<?> type : method.getParameterTypes()) {
      params.add(type.getSimpleName());
    }
    return simpleName(method.getDeclaringClass()) + "." + method.getName() + params;
  }

  /** Returns {@code SimpleClass.method}, to which callers append their own parentheses. */
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
