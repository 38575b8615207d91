package io.github.chash.config;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared helpers of the config tests. */
final class ConfigTesting {
  private ConfigTesting() {}

  /** The problems, as printed, of a call that must throw {@link ConfigException}. */
  static List<String> problems(ThrowingCallable call) {
    ConfigException e = catchThrowableOfType(ConfigException.class, call);
    if (e == null) {
      throw new AssertionError("expected a ConfigException");
    }
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  /** The problems of parsing {@code yaml} as {@code chash.yaml}. */
  static List<String> problems(String yaml) {
    return problems(() -> ChashConfigs.parse(yaml, "chash.yaml"));
  }
}
