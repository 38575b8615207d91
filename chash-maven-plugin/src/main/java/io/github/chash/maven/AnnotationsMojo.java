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
 * Checks every {@code @ShardedCacheable}, {@code @ShardedCachePut} and {@code @ShardedCacheEvict}
 * in the compiled classes against {@code chash.yaml} (cache names, key expressions, ttl), reading
 * class files without loading them; the build fails on any problem. Bound by default to {@code
 * process-classes}, right after {@code compile}: it reads the classes of the build it runs in, so a
 * cache-name typo fails a clean {@code mvn verify}, and the next build after the fix passes.
 */
@Mojo(name = "annotations", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true)
public class AnnotationsMojo extends AbstractChashMojo {

  /**
   * The compiled classes whose chash annotations are checked; a missing directory (a {@code pom}
   * module, nothing compiled) has nothing to check.
   *
   * <pre>
   * &lt;classesDirectory&gt;${project.build.outputDirectory}&lt;/classesDirectory&gt;
   * </pre>
   */
  @Parameter(property = "chash.classesDirectory", defaultValue = "${project.build.outputDirectory}")
  private File classesDirectory;

  /** Creates the mojo. */
  public AnnotationsMojo() {}

  @Override
  protected String goal() {
    return "annotations";
  }

  @Override
  protected void run(ConfigFile file) throws MojoFailureException {
    ChashConfig config = file.load();
    if (classesDirectory == null) {
      return;
    }
    String classes =
        project() == null
            ? classesDirectory.toString()
            : ConfigFile.relative(classesDirectory.toPath(), project().getBasedir());
    if (!classesDirectory.isDirectory()) {
      getLog().info("chash: no compiled classes in " + classes + ": no annotations to check");
      return;
    }
    List<ScanProblem> problems = AnnotationScanner.scan(classesDirectory.toPath(), config);
    if (problems.isEmpty()) {
      getLog().info("chash: the annotations in " + classes + " agree with " + file.display());
      return;
    }
    StringBuilder message =
        new StringBuilder("chash annotations disagree with ")
            .append(file.display())
            .append(": ")
            .append(Text.count(problems.size(), "problem"))
            .append(':');
    for (ScanProblem p : problems) {
      message.append("\n  ").append(p);
    }
    throw new MojoFailureException(message.toString());
  }
}
