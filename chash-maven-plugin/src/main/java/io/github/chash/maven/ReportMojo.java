package io.github.chash.maven;

import io.github.chash.analysis.RingChange;
import io.github.chash.ring.Ring;
import java.io.File;
import java.io.IOException;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.eclipse.aether.RepositorySystem;

/**
 * Prints the expected key distribution (node, weight, fair share, exact share, sampled share, skew,
 * moved if removed) and writes {@code report.json} and a self-contained {@code report.html}. With
 * {@code -Dchash.add=ID[:WEIGHT]} or {@code -Dchash.remove=ID} it also shows which keys that change
 * would move and where. With a baseline ({@code chash.baseline} or {@code check.baseline}) it shows
 * the keys that move against it, per node, the ideal and the cause. Never fails on skew or
 * movement: that is {@code chash:check}'s job.
 */
@Mojo(name = "report", threadSafe = true)
public class ReportMojo extends AbstractAnalysisMojo {

  /**
   * Where {@code report.json} and {@code report.html} go.
   *
   * <pre>{@code <outputDirectory>${project.build.directory}/chash</outputDirectory>}</pre>
   */
  @Parameter(
      property = "chash.outputDirectory",
      defaultValue = "${project.build.directory}/chash",
      required = true)
  private File outputDirectory;

  /**
   * What-if: nodes to add, comma-separated {@code ID[:WEIGHT]} (an id ending in {@code :port} needs
   * its weight: {@code 10.0.0.9:6379:1}). Default: none.
   *
   * <pre>{@code <add>cache-4:2</add>}</pre>
   */
  @Parameter(property = "chash.add")
  private String add;

  /**
   * What-if: ids of nodes to remove, comma-separated. Default: none.
   *
   * <pre>{@code <remove>cache-1</remove>}</pre>
   */
  @Parameter(property = "chash.remove")
  private String remove;

  /**
   * Creates the mojo.
   *
   * @param repositorySystem resolves a baseline given as Maven coordinates
   */
  @Inject
  public ReportMojo(RepositorySystem repositorySystem) {
    super(repositorySystem);
  }

  @Override
  protected String goal() {
    return "report";
  }

  @Override
  protected void run() throws MojoExecutionException, MojoFailureException {
    if (outputDirectory.isFile()) {
      // before the analysis, which can take seconds
      throw new MojoExecutionException(
          "chash.outputDirectory " + outputDirectory + " is a file; name a directory");
    }
    AnalysisInputs inputs = inputs();
    ReportWriter result;
    long start = System.nanoTime();
    long built;
    try {
      RingChange change = RingChange.parse(add, remove);
      Ring ring = inputs.ring();
      built = System.nanoTime();
      result = ReportWriter.analyze(inputs, ring, change);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
    result = result.withBaseline(compareWithBaseline(inputs));
    long analyzed = System.nanoTime();
    result.consoleLines().forEach(getLog()::info);
    getLog()
        .info(
            "chash: built the ring in "
                + millis(start, built)
                + " ms, analyzed "
                + result.report().nodes().size()
                + " nodes and "
                + result.report().sampleKeys()
                + " sample keys in "
                + millis(built, analyzed)
                + " ms");
    long writing = System.nanoTime();
    try {
      result.writeFiles(outputDirectory.toPath());
    } catch (IOException e) {
      throw new MojoExecutionException(
          "cannot write chash report to " + outputDirectory + ": " + e, e);
    }
    getLog()
        .debug("chash: wrote the report files in " + millis(writing, System.nanoTime()) + " ms");
    getLog().info("chash: wrote " + new File(outputDirectory, "report.json"));
    getLog().info("chash: wrote " + new File(outputDirectory, "report.html"));
  }

  private static long millis(long fromNanos, long toNanos) {
    return (toNanos - fromNanos) / 1_000_000;
  }
}
