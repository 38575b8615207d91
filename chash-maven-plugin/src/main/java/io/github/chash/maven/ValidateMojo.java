package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import io.github.chash.maven.scan.AnnotationScanner;
import io.github.chash.maven.scan.ScanProblem;
import java.io.File;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

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

  /** Creates the mojo. */
  public ValidateMojo() {}

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
    checkAnnotations(config);
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
