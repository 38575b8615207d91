package io.github.chash.maven;

import io.github.chash.ring.Ring;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.eclipse.aether.RepositorySystem;

/**
 * Fails the build when the ring's distribution breaks the limits: a node whose exact share exceeds
 * {@code maxSkew} times its fair share, or whose sampled share does so beyond sampling noise
 * (one-sided binomial z-test, z &gt; 3.29, p &lt; 0.0005); or, against the baseline (by default the
 * same {@code chash.yaml} at the git merge-base with the default branch), when more keys move than
 * {@code maxMoved} (default 0.30) or {@code maxMovedOverIdeal} (default 2.0) times the ideal. The
 * failure message lists every node over the limit and the movement, each with what to do; a passing
 * check logs the maximum skew and its node.
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
  protected void run(ConfigFile file) throws MojoExecutionException, MojoFailureException {
    AnalysisInputs inputs = inputs(file);
    ReportData data;
    try {
      Ring ring = inputs.ring();
      data = ReportData.analyze(inputs, ring, null);
      data = data.withBaseline(compareWithBaseline(inputs, ring));
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
    if (data.baseline() != null) {
      getLog().info(ConsoleReport.baselineSummary(data.baseline()));
    }
    if (!data.passed()) {
      // the message is the one place the violations are printed: Maven shows it once, naming the
      // module
      throw new MojoFailureException(ConsoleReport.checkFailed(data));
    }
    getLog().info(ConsoleReport.checkPassed(data));
  }
}
