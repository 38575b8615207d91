package io.github.chash.maven;

import java.io.File;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What every chash goal shares: {@code chash.skip}, the {@code chash.yaml} location, and the rule
 * for modules without one: a module whose default {@code chash.yaml} does not exist (a parent POM
 * of {@code pom} packaging, a module that does not cache) is skipped with one INFO line, so that
 * the plugin can sit in a parent's {@code <build><plugins>}; a file named explicitly must exist.
 */
public abstract class AbstractChashMojo extends AbstractMojo {

  /**
   * Skips the goal.
   *
   * <pre>
   * &lt;skip&gt;true&lt;/skip&gt;
   * </pre>
   */
  @Parameter(property = "chash.skip", defaultValue = "false")
  private boolean skip;

  /**
   * The configuration file. Default: {@code src/main/resources/chash.yaml} of the project; when
   * that does not exist the module is skipped with one INFO line. A file named here (or with {@code
   * -Dchash.config}) must exist.
   *
   * <pre>
   * &lt;config&gt;${project.basedir}/src/main/resources/chash.yaml&lt;/config&gt;
   * </pre>
   */
  @Parameter(property = "chash.config")
  private File config;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  private MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true, required = true)
  private MavenSession session;

  /** Creates the mojo. */
  protected AbstractChashMojo() {}

  /** Runs the goal unless skipped or the module has no configuration. */
  @Override
  public final void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("chash: skipping " + goal() + " (chash.skip=true)");
      return;
    }
    ConfigFile file = configFile();
    if (!file.exists() && !file.explicit()) {
      getLog().info(skipLine(file));
      return;
    }
    run(file);
  }

  /** The INFO line of a module without a configuration. */
  final String skipLine(ConfigFile file) {
    return "chash: skipping "
        + goal()
        + ": no "
        + file.display()
        + " (a module without one is skipped; name one with -Dchash.config=FILE)";
  }

  /** {@return the goal's name, for messages} */
  protected abstract String goal();

  /**
   * The goal's work.
   *
   * @param file the configuration: it exists, or it was named explicitly
   * @throws MojoExecutionException when the goal cannot run (an unreadable file, a bad parameter)
   * @throws MojoFailureException when the configuration fails the goal's check
   */
  protected abstract void run(ConfigFile file) throws MojoExecutionException, MojoFailureException;

  /** Whether {@code chash.skip} is set. */
  final boolean skipped() {
    return skip;
  }

  /** The configuration file of this module. */
  final ConfigFile configFile() {
    return ConfigFile.of(config, basedir(), reactorRoot());
  }

  /** A path as messages name it: relative to the reactor root. */
  final String display(java.nio.file.Path path) {
    return ConfigFile.relative(path, reactorRoot());
  }

  private File basedir() {
    return project != null ? project.getBasedir() : new File("").getAbsoluteFile();
  }

  /** The folder the build was started in (the top-level project's), for relative names. */
  private File reactorRoot() {
    if (session != null && session.getTopLevelProject() != null) {
      return session.getTopLevelProject().getBasedir();
    }
    if (session != null && session.getExecutionRootDirectory() != null) {
      return new File(session.getExecutionRootDirectory());
    }
    return basedir();
  }

  /** The project (null in unit tests). */
  final MavenProject project() {
    return project;
  }

  /** The session (null in unit tests). */
  final MavenSession session() {
    return session;
  }
}
