package io.github.chash.maven;

import io.github.chash.analysis.NodeOrder;
import io.github.chash.config.ChashConfig;
import io.github.chash.maven.scan.AnnotationScanner;
import io.github.chash.maven.scan.ScanProblem;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import javax.inject.Inject;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;

/**
 * Parses and validates {@code chash.yaml}: every problem is logged on its own line as {@code
 * chash.yaml:LINE:COLUMN: message}, and the build fails on any.
 *
 * <p>When the project's compiled classes exist, it also checks every {@code @ShardedCacheable},
 * {@code @ShardedCachePut} and {@code @ShardedCacheEvict} in them against the configuration (cache
 * names, key expressions, ttl), reading class files without loading them. In the default {@code
 * validate} phase of a clean build there are no classes yet; bind a second execution to {@code
 * process-classes} to check them:
 *
 * <pre>{@code
 * <execution>
 *   <id>chash-annotations</id>
 *   <phase>process-classes</phase>
 *   <goals><goal>validate</goal></goals>
 * </execution>
 * }</pre>
 *
 * <p>For an order-sensitive algorithm ({@code jump}, {@code jedis}) with a baseline ({@code
 * chash.baseline} or {@code check.baseline}), it warns when a node that stays changed its list
 * position, since that moves its keys; {@code chash:check} measures how many.
 */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public class ValidateMojo extends AbstractChashMojo {

  /**
   * The compiled classes whose chash annotations are checked; a missing directory is skipped.
   *
   * <pre>{@code <classesDirectory>${project.build.outputDirectory}</classesDirectory>}</pre>
   */
  @Parameter(property = "chash.classesDirectory", defaultValue = "${project.build.outputDirectory}")
  private File classesDirectory;

  /**
   * The configuration whose node order is compared, for {@code jump} and {@code jedis}: a file
   * (relative to the project folder), or {@code groupId:artifactId:version}. Default: {@code
   * check.baseline} of {@code chash.yaml}, else none.
   *
   * <pre>{@code <baseline>com.example:orders-service:1.4.0</baseline>}</pre>
   */
  @Parameter(property = "chash.baseline")
  private String baseline;

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
  @Inject
  public ValidateMojo(RepositorySystem repositorySystem) {
    this.repositorySystem = repositorySystem;
  }

  @Override
  protected String goal() {
    return "validate";
  }

  @Override
  protected void run() throws MojoFailureException {
    ChashConfig config = loadConfig();
    getLog()
        .info(
            "chash: "
                + configFile().getName()
                + " is valid: "
                + config.nodes().size()
                + " nodes, algorithm "
                + config.ring().algorithm().configName()
                + ", hash "
                + config.ring().hash().name());
    warnOnReorderedNodes(config);
    checkAnnotations(config);
  }

  /** Warns when the nodes of jump or jedis moved in the list against the baseline. */
  private void warnOnReorderedNodes(ChashConfig config) {
    if (!config.ring().algorithm().orderSensitive()) {
      return;
    }
    BaselineSource.ArtifactResolver resolver =
        BaselineSource.mavenResolver(repositorySystem, session, project);
    try {
      BaselineSource.Loaded loaded;
      if (baseline != null && !baseline.isBlank()) {
        Path basedir = project != null ? project.getBasedir().toPath() : Path.of("");
        loaded = BaselineSource.load(baseline, basedir, "chash.baseline", resolver);
      } else if (config.check().baseline() != null) {
        Path dir = configFile().getAbsoluteFile().toPath().getParent();
        String origin = "check.baseline in " + configFile().getName();
        loaded = BaselineSource.load(config.check().baseline(), dir, origin, resolver);
      } else {
        return;
      }
      NodeOrder.change(loaded.config(), config)
          .ifPresent(
              change -> getLog().warn("chash: against baseline " + loaded.name() + ", " + change));
    } catch (MojoExecutionException e) {
      // validate checks this file; a broken baseline fails chash:check, not validate
      getLog().warn("chash: cannot compare the node order with the baseline: " + e.getMessage());
    }
  }

  private void checkAnnotations(ChashConfig config) throws MojoFailureException {
    if (classesDirectory == null || !classesDirectory.isDirectory()) {
      return;
    }
    List<ScanProblem> problems = AnnotationScanner.scan(classesDirectory.toPath(), config);
    if (problems.isEmpty()) {
      getLog()
          .info(
              "chash: annotations in "
                  + classesDirectory.getName()
                  + " agree with "
                  + configFile().getName());
      return;
    }
    StringBuilder message =
        new StringBuilder("chash annotations disagree with ")
            .append(configFile().getName())
            .append(": ")
            .append(problems.size())
            .append(problems.size() == 1 ? " problem:" : " problems:");
    for (ScanProblem p : problems) {
      getLog().error(p.toString());
      message.append('\n').append(p);
    }
    throw new MojoFailureException(message.toString());
  }
}
