package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;
import java.io.File;
import java.nio.file.Files;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What every chash goal shares: {@code chash.skip}, the {@code chash.yaml} location, and loading it
 * with every problem reported on its own line.
 */
public abstract class AbstractChashMojo extends AbstractMojo {

  /**
   * Skips the goal.
   *
   * <pre>{@code <skip>true</skip>}</pre>
   */
  @Parameter(property = "chash.skip", defaultValue = "false")
  private boolean skip;

  /**
   * The configuration file.
   *
   * <pre>{@code <config>${project.basedir}/src/main/resources/chash.yaml</config>}</pre>
   */
  @Parameter(
      property = "chash.config",
      defaultValue = "${project.basedir}/src/main/resources/chash.yaml",
      required = true)
  private File config;

  /** Runs the goal unless skipped. */
  @Override
  public final void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("chash: skipping " + goal() + " (chash.skip=true)");
      return;
    }
    run();
  }

  /** The goal's name, for messages. */
  protected abstract String goal();

  /** The goal's work. */
  protected abstract void run() throws MojoExecutionException, MojoFailureException;

  /** The configuration file. */
  protected final File configFile() {
    return config;
  }

  /**
   * Loads and validates the configuration; each problem goes to the error log as {@code
   * file:line:column: message}.
   *
   * @throws MojoFailureException listing every problem, when the file is missing or invalid
   */
  protected final ChashConfig loadConfig() throws MojoFailureException {
    return load(config, getLog());
  }

  static ChashConfig load(File config, org.apache.maven.plugin.logging.Log log)
      throws MojoFailureException {
    if (Files.isDirectory(config.toPath())) {
      throw new MojoFailureException(
          "chash config file "
              + config
              + " is a directory; point chash.config at the chash.yaml file (-Dchash.config=FILE)");
    }
    if (!Files.isRegularFile(config.toPath())) {
      throw new MojoFailureException(
          "chash config file "
              + config
              + " does not exist; create it or point chash.config at it (-Dchash.config=FILE)");
    }
    try {
      return ChashConfigs.load(config.toPath());
    } catch (ConfigException e) {
      StringBuilder message =
          new StringBuilder(config.getName())
              .append(" has ")
              .append(e.problems().size())
              .append(e.problems().size() == 1 ? " problem:" : " problems:");
      for (ConfigProblem p : e.problems()) {
        log.error(p.toString());
        message.append('\n').append(p);
      }
      throw new MojoFailureException(message.toString(), e);
    }
  }
}
