package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.chash.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A bad {@code chash.yaml} fails a real {@code SpringApplication} run with Spring Boot's failure
 * analysis ("APPLICATION FAILED TO START"), naming file:line:column, through {@link
 * ChashConfigFailureAnalyzer} as Boot finds it in {@code META-INF/spring.factories}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChashConfigFailureAnalyzerTest {
  @TempDir Path dir;

  /** A Boot application with nothing of its own. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private Throwable run(String... properties) {
    return catchThrowable(
        () ->
            new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties(properties)
                .run()
                .close());
  }

  @Test
  void invalidFile_failsTheStartupWithBootsAnalysisNamingFileLineAndColumn(CapturedOutput output)
      throws Exception {
    Path bad = dir.resolve("chash.yaml");
    Files.writeString(
        bad, "nodes:\n  - id: a\n    weight: -1\n  - id: a\n", StandardCharsets.UTF_8);

    Throwable failure = run("chash.config=" + bad.toUri());

    assertThat(failure).hasRootCauseInstanceOf(ConfigException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "Description:\n\nThe chash configuration is not valid (2 problems):\n\n"
                + "    chash.yaml:3:13: nodes[0].weight must be a positive integer, was -1\n"
                + "    chash.yaml:4:9: nodes[1].id \"a\" is already used by nodes[0]\n")
        .contains("Action:\n\nFix chash.yaml at the line and column shown.")
        .contains("chash.config (now " + bad.toUri() + ")")
        // the analysis replaces the stack trace Boot logs for a failure nothing analyzed
        .doesNotContain("Application run failed");
  }

  @Test
  void missingFile_failsTheStartupWithBootsAnalysis(CapturedOutput output) {
    Throwable failure = run("chash.config=classpath:nowhere/chash.yaml");

    assertThat(failure).hasRootCauseInstanceOf(ConfigException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "    chash.yaml:1:1: not found: classpath:nowhere/chash.yaml (property chash.config")
        .contains(
            "Action:\n\nCreate chash.yaml (by default src/main/resources/chash.yaml), or set"
                + " chash.config to where it is (now classpath:nowhere/chash.yaml).")
        .doesNotContain("Application run failed");
  }

  @Test
  void analyzer_analyzesOnlyConfigExceptions_andWorksWithoutAContext() {
    ChashConfigFailureAnalyzer analyzer = new ChashConfigFailureAnalyzer(null);
    assertThat(analyzer.analyze(new IllegalStateException("not chash's"))).isNull();
    FailureAnalysis analysis =
        analyzer.analyze(
            new IllegalStateException(
                "wrapped",
                new ConfigException(
                    List.of(
                        new io.github.chash.config.ConfigProblem(
                            "ring.yaml", 2, 5, "nodes[0].id is missing")))));
    assertThat(analysis.getDescription())
        .isEqualTo(
            "The chash configuration is not valid (1 problem):\n\n"
                + "    ring.yaml:2:5: nodes[0].id is missing");
    assertThat(analysis.getAction())
        .startsWith("Fix ring.yaml at the line and column shown.")
        .contains("chash.config (default classpath:chash.yaml)");
    assertThat(analysis.getCause()).isInstanceOf(ConfigException.class);
  }
}
