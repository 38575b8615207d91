package io.github.chash.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when a configuration is invalid. Carries every problem found in the file, not just the
 * first; the message lists them one per line as {@code file:line:column: message}.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<ConfigProblem> problems;

  /**
   * Creates an exception for the given problems (at least one).
   *
   * @param problems the problems, in file order, at least one
   */
  public ConfigException(List<ConfigProblem> problems) {
    this(problems, null);
  }

  /**
   * Creates an exception for the given problems (at least one), chaining the cause.
   *
   * @param problems the problems, in file order, at least one
   * @param cause the underlying exception
   */
  public ConfigException(List<ConfigProblem> problems, Throwable cause) {
    super(format(problems), cause);
    this.problems = List.copyOf(problems);
  }

  /** {@return the problems, in file order} */
  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String format(List<ConfigProblem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    return problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n"));
  }
}
