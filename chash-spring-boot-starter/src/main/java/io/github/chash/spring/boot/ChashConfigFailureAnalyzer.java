package io.github.chash.spring.boot;

import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;
import java.util.stream.Collectors;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Turns a startup that failed on an invalid or missing {@code chash.yaml} into Spring Boot's
 * "APPLICATION FAILED TO START" report: the description lists each problem as {@code
 * file:line:column: message}, the action says to fix the file (or, when it is missing, to create
 * it) and where the starter reads it from ({@code chash.config}). Without it the same message is
 * inside a long stack trace. Registered in {@code META-INF/spring.factories}, which Boot 3.5 and 4
 * both read for failure analyzers.
 */
public class ChashConfigFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException> {
  private final Environment environment;

  /**
   * Created by Spring Boot when a startup fails.
   *
   * @param environment the failed application's environment, to name {@code chash.config}; null
   *     when the failure came before the context existed
   */
  public ChashConfigFailureAnalyzer(Environment environment) {
    this.environment = environment;
  }

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, ConfigException cause) {
    String problems =
        cause.problems().stream()
            .map(ConfigProblem::toString)
            .collect(Collectors.joining("\n    ", "    ", ""));
    String description =
        "The chash configuration is not valid ("
            + cause.problems().size()
            + (cause.problems().size() == 1 ? " problem" : " problems")
            + "):\n\n"
            + problems;
    ConfigProblem first = cause.problems().get(0);
    boolean missing = cause.problems().size() == 1 && first.message().startsWith("not found: ");
    String action =
        missing
            ? "Create "
                + first.file()
                + " (by default src/main/resources/chash.yaml), or set chash.config to where it is ("
                + location()
                + ")."
            : "Fix "
                + first.file()
                + " at the line and column shown. The starter reads it from the location in"
                + " chash.config ("
                + location()
                + "); the chash Maven plugin's chash:validate goal checks the file at build time.";
    return new FailureAnalysis(description, action, cause);
  }

  private String location() {
    String defaultLocation = "classpath:chash.yaml";
    if (environment == null) {
      return "default " + defaultLocation;
    }
    String location = environment.getProperty("chash.config");
    return location == null ? "unset, so " + defaultLocation : "now " + location;
  }
}
