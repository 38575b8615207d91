package io.github.chash.maven;

import io.github.chash.analysis.BaselineComparison;
import io.github.chash.analysis.BaselineReport;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.CheckConfig;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;

/** Goals that analyze the distribution: the {@code check:} overrides of the command line. */
public abstract class AbstractAnalysisMojo extends AbstractChashMojo {

  /**
   * Largest allowed skew (node share / fair share). Default: {@code check.maxSkew} of {@code
   * chash.yaml}, else 1.20.
   *
   * <pre>{@code <maxSkew>1.15</maxSkew>}</pre>
   */
  @Parameter(property = "chash.maxSkew")
  private String maxSkew;

  /**
   * Number of synthetic sample keys. Default: {@code check.sampleKeys}, else 1,000,000.
   *
   * <pre>{@code <sampleKeys>1000000</sampleKeys>}</pre>
   */
  @Parameter(property = "chash.sampleKeys")
  private String sampleKeys;

  /**
   * A file of real keys, one a line, sampled instead of synthetic keys. Default: {@code
   * check.keysFile} (relative to {@code chash.yaml}), else none.
   *
   * <pre>{@code <keysFile>${project.basedir}/keys.txt</keysFile>}</pre>
   */
  @Parameter(property = "chash.keysFile")
  private File keysFile;

  /**
   * Pattern of the synthetic keys, {@code {n}} replaced by 0, 1, 2, ... Default: {@code
   * check.keyPattern}, else {@code key:{n}}.
   *
   * <pre>{@code <keyPattern>users:{n}</keyPattern>}</pre>
   */
  @Parameter(property = "chash.keyPattern")
  private String keyPattern;

  /**
   * The configuration to compare against: a file (relative to the project folder), or {@code
   * groupId:artifactId:version} of a released artifact with a {@code chash.yaml} at its root,
   * resolved through Maven. Default: {@code check.baseline} of {@code chash.yaml} (a file there is
   * relative to {@code chash.yaml}), else none.
   *
   * <pre>{@code <baseline>com.example:orders-service:1.4.0</baseline>}</pre>
   */
  @Parameter(property = "chash.baseline")
  private String baseline;

  /**
   * Largest allowed fraction of keys that change node against the baseline. Default: {@code
   * check.maxMoved}, else no limit.
   *
   * <pre>{@code <maxMoved>0.15</maxMoved>}</pre>
   */
  @Parameter(property = "chash.maxMoved")
  private String maxMoved;

  /**
   * Largest allowed ratio of moved keys to the ideal minimum for the membership change; when the
   * membership did not change (ideal 0) any movement exceeds it. Default: {@code
   * check.maxMovedOverIdeal}, else no limit.
   *
   * <pre>{@code <maxMovedOverIdeal>1.5</maxMovedOverIdeal>}</pre>
   */
  @Parameter(property = "chash.maxMovedOverIdeal")
  private String maxMovedOverIdeal;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  private MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true, required = true)
  private MavenSession session;

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
   * Compares the configured ring with the baseline, when one is configured.
   *
   * @return the comparison and its limits, or null without a baseline
   * @throws MojoExecutionException when the baseline cannot be resolved or read, or a limit is not
   *     a number in its range
   */
  protected final BaselineResult compareWithBaseline(AnalysisInputs inputs)
      throws MojoExecutionException {
    CheckConfig check =
        inputs.config().check() == null ? CheckConfig.defaults() : inputs.config().check();
    Double movedOverride;
    Double overIdealOverride;
    try {
      movedOverride = Overrides.maxMoved(maxMoved);
      overIdealOverride = Overrides.maxMovedOverIdeal(maxMovedOverIdeal);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
    Double moved = movedOverride != null ? movedOverride : check.maxMoved();
    Double overIdeal = overIdealOverride != null ? overIdealOverride : check.maxMovedOverIdeal();
    BaselineSource.Loaded loaded;
    if (baseline != null && !baseline.isBlank()) {
      Path basedir = project != null ? project.getBasedir().toPath() : Path.of("");
      loaded = BaselineSource.load(baseline, basedir, "chash.baseline", this::resolveArtifact);
    } else if (check.baseline() != null) {
      Path dir = configFile().getAbsoluteFile().toPath().getParent();
      loaded =
          BaselineSource.load(
              check.baseline(),
              dir,
              "check.baseline in " + configFile().getName(),
              this::resolveArtifact);
    } else {
      if (moved != null || overIdeal != null) {
        getLog()
            .warn("chash: maxMoved/maxMovedOverIdeal are set but no baseline: nothing to compare");
      }
      return null;
    }
    try {
      BaselineReport report =
          BaselineComparison.compare(
              loaded.config(), loaded.name(), inputs.config(), inputs.keys());
      return new BaselineResult(report, moved, overIdeal);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }

  private Path resolveArtifact(String coordinates) throws MojoExecutionException {
    return BaselineSource.mavenResolver(repositorySystem, session, project).resolve(coordinates);
  }

  /**
   * Loads the config and applies the overrides.
   *
   * @throws MojoFailureException when the config is invalid
   * @throws MojoExecutionException when an override is invalid or the keys file is unreadable
   */
  protected final AnalysisInputs inputs() throws MojoFailureException, MojoExecutionException {
    ChashConfig config = loadConfig();
    try {
      return AnalysisInputs.fromOverrides(
          config, configFile(), maxSkew, sampleKeys, keysFile, keyPattern);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }
}
