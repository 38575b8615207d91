package io.github.chash.internal.keys;

import java.util.List;

/**
 * Internal: what the rules need to know of an annotated method, from reflection (the aspect) or a
 * class file (the plugin).
 *
 * @param parameterNames the parameters' names in order, or {@code null} when the class file has
 *     none (neither {@code -parameters} nor debug information the weaver could read)
 * @param parameterCount how many parameters the method takes
 * @param returnsVoid whether the method is {@code void}
 */
public record MethodShape(List<String> parameterNames, int parameterCount, boolean returnsVoid) {

  /**
   * Checks the names against the count.
   *
   * @param parameterNames the parameters' names in order, or {@code null} when the class file has
   *     none (neither {@code -parameters} nor debug information the weaver could read)
   * @param parameterCount how many parameters the method takes
   * @param returnsVoid whether the method is {@code void}
   * @throws IllegalArgumentException if there are names, but not one per parameter
   */
  public MethodShape {
    if (parameterNames != null) {
      parameterNames = List.copyOf(parameterNames);
      if (parameterNames.size() != parameterCount) {
        throw new IllegalArgumentException(
            "parameter names "
                + parameterNames
                + " do not match the parameter count "
                + parameterCount);
      }
    }
  }
}
