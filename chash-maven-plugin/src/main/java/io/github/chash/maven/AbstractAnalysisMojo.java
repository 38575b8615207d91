package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import java.io.File;
import java.io.UncheckedIOException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** Goals that analyze the distribution: the {@code check:} overrides of the command line. */
public abstract class AbstractAnalysisMojo extends AbstractChashMojo {

  /**
   * Largest allowed skew (node share / fair share). Default: {@code check.maxSkew} of {@code
   * chash.yaml}, else 1.20.
   *
   * <pre>{@code <maxSkew>1.15</maxSkew>}</pre>
   */
  @Parameter(property = "chash.maxSkew")
  private Double maxSkew;

  /**
   * Number of synthetic sample keys. Default: {@code check.sampleKeys}, else 1,000,000.
   *
   * <pre>{@code <sampleKeys>1000000</sampleKeys>}</pre>
   */
  @Parameter(property = "chash.sampleKeys")
  private Integer sampleKeys;

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
   * Loads the config and applies the overrides.
   *
   * @throws MojoFailureException when the config is invalid
   * @throws MojoExecutionException when an override is invalid or the keys file is unreadable
   */
  protected final AnalysisInputs inputs() throws MojoFailureException, MojoExecutionException {
    ChashConfig config = loadConfig();
    try {
      return AnalysisInputs.of(config, configFile(), maxSkew, sampleKeys, keysFile, keyPattern);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }
}
