package io.github.chash.maven;

import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Violation;
import java.util.Locale;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.eclipse.aether.RepositorySystem;

/**
 * Fails the build when the ring's distribution breaks the limits: a node whose exact share exceeds
 * {@code maxSkew} times its fair share, or whose sampled share does so beyond sampling noise
 * (one-sided binomial z-test, z &gt; 3.29, p &lt; 0.0005). The failure message lists every
 * violation; a passing check logs the measured maximum skew. With a baseline ({@code
 * chash.baseline} or {@code check.baseline}) it also fails when more keys would move than {@code
 * maxMoved} or {@code maxMovedOverIdeal} times the ideal; the message names the cause.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class CheckMojo extends AbstractAnalysisMojo {

  /**
   * Creates the mojo.
   *
   * @param repositorySystem resolves a baseline given as Maven coordinates
   */
  @Inject
  public CheckMojo(RepositorySystem repositorySystem) {
    super(repositorySystem);
  }

  @Override
  protected String goal() {
    return "check";
  }

  @Override
  protected void run() throws MojoExecutionException, MojoFailureException {
    AnalysisInputs inputs = inputs();
    DistributionReport report;
    try {
      report = inputs.analyze();
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
    BaselineResult baseline = compareWithBaseline(inputs);
    String movement = baseline == null ? null : baseline.violation();
    if (baseline != null) {
      getLog().info(baseline.report().summary());
      getLog().info("  (" + baseline.report().method() + ")");
    }
    if (!report.passed() || movement != null) {
      String message = withMovement(report.passed() ? null : failureMessage(report), movement);
      for (String line : message.split("\n")) {
        getLog().error(line);
      }
      throw new MojoFailureException(message);
    }
    getLog().info(passMessage(report));
  }

  /** The skew failure message (or null) followed by the movement one (or null). */
  static String withMovement(String skewFailure, String movement) {
    if (skewFailure == null) {
      return movement;
    }
    return movement == null ? skewFailure : skewFailure + "\n" + movement;
  }

  static String failureMessage(DistributionReport report) {
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "chash check failed: %d violation%s of maxSkew %.2f:",
                report.violations().size(),
                report.violations().size() == 1 ? "" : "s",
                report.limit()));
    for (Violation v : report.violations()) {
      b.append("\n  ").append(v.message());
    }
    return b.toString();
  }

  static String passMessage(DistributionReport report) {
    return String.format(
            Locale.ROOT,
            "chash check passed: max skew %.3f (exact %.3f, sampled %s over %d keys), limit %.2f",
            report.maxSkew(),
            report.maxExactSkew(),
            Double.isNaN(report.maxSampledSkew())
                ? "n/a"
                : String.format(Locale.ROOT, "%.3f", report.maxSampledSkew()),
            report.sampleKeys(),
            report.limit())
        + ConsoleTable.noiseNote(report);
  }
}
