package io.github.chash.maven;

import io.github.chash.analysis.BaselineComparison;
import io.github.chash.analysis.BaselineReport;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.CheckConfig;
import io.github.chash.ring.Ring;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.eclipse.aether.RepositorySystem;

/**
 * Goals that analyze the distribution ({@code check}, {@code report}): the {@code check:} overrides
 * of the command line, and the baseline a change is compared with.
 */
public abstract class AbstractAnalysisMojo extends AbstractChashMojo {

  /**
   * Largest allowed skew (node share / fair share). Default: {@code check.maxSkew} of {@code
   * chash.yaml}, else 1.20.
   *
   * <pre>
   * &lt;maxSkew&gt;1.15&lt;/maxSkew&gt;
   * </pre>
   */
  @Parameter(property = "chash.maxSkew")
  private String maxSkew;

  /**
   * Number of synthetic sample keys. Default: {@code check.sampleKeys}, else 1,000,000.
   *
   * <pre>
   * &lt;sampleKeys&gt;1000000&lt;/sampleKeys&gt;
   * </pre>
   */
  @Parameter(property = "chash.sampleKeys")
  private String sampleKeys;

  /**
   * A file of real keys, one a line, sampled instead of synthetic keys. Default: {@code
   * check.keysFile} (relative to {@code chash.yaml}), else none.
   *
   * <pre>
   * &lt;keysFile&gt;${project.basedir}/keys.txt&lt;/keysFile&gt;
   * </pre>
   */
  @Parameter(property = "chash.keysFile")
  private File keysFile;

  /**
   * Pattern of the synthetic keys, {@code {n}} replaced by 0, 1, 2, ... Default: {@code
   * check.keyPattern}, else {@code key:{n}}.
   *
   * <pre>
   * &lt;keyPattern&gt;users:{n}&lt;/keyPattern&gt;
   * </pre>
   */
  @Parameter(property = "chash.keyPattern")
  private String keyPattern;

  /**
   * The configuration a change is compared with: a file (relative to the project folder), {@code
   * groupId:artifactId:version} of a released artifact with a {@code chash.yaml} at its root
   * (resolved through Maven), {@code git:REF} for the same file at the merge-base of {@code HEAD}
   * and that ref, or {@code none}. Default: {@code check.baseline} of {@code chash.yaml} (a file
   * there is relative to {@code chash.yaml}), else, in a git repository, the same file at the
   * merge-base of {@code HEAD} and the default branch ({@code origin/HEAD}, else {@code main},
   * {@code master}).
   *
   * <pre>
   * &lt;baseline&gt;com.example:orders-service:1.4.0&lt;/baseline&gt;
   * </pre>
   */
  @Parameter(property = "chash.baseline")
  private String baseline;

  /**
   * Largest allowed fraction of keys that change node against the baseline. Default: {@code
   * check.maxMoved}, else 0.30 (30% of the keys).
   *
   * <pre>
   * &lt;maxMoved&gt;0.15&lt;/maxMoved&gt;
   * </pre>
   */
  @Parameter(property = "chash.maxMoved")
  private String maxMoved;

  /**
   * Largest allowed ratio of moved keys to the ideal minimum for the membership change; when the
   * membership did not change (ideal 0) any movement exceeds it. Default: {@code
   * check.maxMovedOverIdeal}, else 2.0.
   *
   * <pre>
   * &lt;maxMovedOverIdeal&gt;1.5&lt;/maxMovedOverIdeal&gt;
   * </pre>
   */
  @Parameter(property = "chash.maxMovedOverIdeal")
  private String maxMovedOverIdeal;

  /**
   * How many nodes the console lists at most, the worst (largest skew) first, when the ring has
   * more; {@code report.json} and {@code report.html} list them all.
   *
   * <pre>
   * &lt;top&gt;10&lt;/top&gt;
   * </pre>
   */
  @Parameter(property = "chash.top", defaultValue = "10")
  private String top;

  private final RepositorySystem repositorySystem;

  /**
   * Creates the mojo.
   *
   * @param repositorySystem resolves a baseline given as Maven coordinates
   */
  protected AbstractAnalysisMojo(RepositorySystem repositorySystem) {
    this.repositorySystem = repositorySystem;
  }

  /**
   * Loads the config and applies the overrides.
   *
   * @param file the configuration file of this execution
   * @return the configuration with the goal's overrides applied
   * @throws MojoFailureException when the config is invalid
   * @throws MojoExecutionException when an override is invalid or the keys file is unreadable
   */
  protected final AnalysisInputs inputs(ConfigFile file)
      throws MojoFailureException, MojoExecutionException {
    ChashConfig config = file.load();
    try {
      return AnalysisInputs.fromOverrides(
          config, file, maxSkew, sampleKeys, keysFile, keyPattern, top);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }

  /**
   * Compares the configured ring with the baseline: the one named, else the git merge-base's. Says
   * in one INFO line what was compared, or why nothing was.
   *
   * @param inputs the loaded configuration and its overrides, from {@link #inputs}
   * @param ring the configured ring, already built
   * @return the comparison and its limits, or null without a baseline
   * @throws MojoExecutionException when a named baseline cannot be resolved or read, or a limit is
   *     not a number in its range
   */
  protected final BaselineResult compareWithBaseline(AnalysisInputs inputs, Ring ring)
      throws MojoExecutionException {
    CheckConfig check = inputs.check();
    Double movedOverride;
    Double overIdealOverride;
    try {
      movedOverride = Overrides.maxMoved(maxMoved);
      overIdealOverride = Overrides.maxMovedOverIdeal(maxMovedOverIdeal);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
    ConfigFile file = inputs.file();
    GitBaseline git = new GitBaseline(Map.of());
    BaselineSource.Named named =
        BaselineSource.named(
            baseline, check, project() == null ? null : project().getBasedir(), file);
    BaselineSource.Loaded loaded =
        named == null
            ? BaselineSource.fromGit(git, file, null, getLog()::info)
            : named.load(this::resolveArtifact, git, file, getLog()::info);
    if (loaded == null) {
      if (movedOverride != null || overIdealOverride != null) {
        getLog().warn("chash: maxMoved/maxMovedOverIdeal are set but there is no baseline");
      }
      return null;
    }
    if (loaded.detail() != null) {
      getLog().info("chash: " + loaded.detail());
    }
    try {
      BaselineReport report =
          BaselineComparison.compare(
              loaded.config(), loaded.name(), inputs.config(), ring, inputs.keys());
      return BaselineResult.of(
          report,
          file,
          movedOverride,
          check.maxMoved(),
          overIdealOverride,
          check.maxMovedOverIdeal());
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }

  private Path resolveArtifact(String coordinates) throws MojoExecutionException {
    return BaselineSource.mavenResolver(repositorySystem, session(), project())
        .resolve(coordinates);
  }
}
