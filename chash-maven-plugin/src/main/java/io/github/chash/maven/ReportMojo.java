package io.github.chash.maven;

import io.github.chash.analysis.RingChange;
import io.github.chash.ring.Ring;
import java.io.File;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.inject.Inject;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.doxia.sink.SinkFactory;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.reporting.MavenMultiPageReport;
import org.apache.maven.reporting.MavenReportException;
import org.eclipse.aether.RepositorySystem;

/**
 * Prints the expected key distribution (node, weight, fair share, exact share, sampled share, skew,
 * moved if removed) and writes {@code report.json} and a self-contained {@code report.html}. With
 * {@code -Dchash.add=ID[:WEIGHT]} or {@code -Dchash.remove=ID} it also shows which keys that change
 * would move and where; with a baseline (by default the git merge-base's {@code chash.yaml}) the
 * keys that move against it, per node, the ideal and the cause. Never fails on skew or movement:
 * that is {@code chash:check}'s job.
 *
 * <p>The same goal is the {@code mvn site} report "Key distribution" ({@code chash-report.html}):
 * list the plugin under {@code <reporting>}. One mojo, so the site report takes exactly the
 * parameters of {@code chash:report} (jacoco's report goals are built the same way).
 */
@Mojo(name = "report", threadSafe = true)
public class ReportMojo extends AbstractAnalysisMojo implements MavenMultiPageReport {

  /**
   * Where {@code report.json} and {@code report.html} go: per module.
   *
   * <pre>
   * &lt;outputDirectory&gt;${project.build.directory}/chash&lt;/outputDirectory&gt;
   * </pre>
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
   * <pre>
   * &lt;add&gt;cache-4:2&lt;/add&gt;
   * </pre>
   */
  @Parameter(property = "chash.add")
  private String add;

  /**
   * What-if: ids of nodes to remove, comma-separated. Default: none.
   *
   * <pre>
   * &lt;remove&gt;cache-1&lt;/remove&gt;
   * </pre>
   */
  @Parameter(property = "chash.remove")
  private String remove;

  /** Where the site puts its pages; set by the site plugin. */
  private File reportOutputDirectory;

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
  protected void run(ConfigFile file) throws MojoExecutionException, MojoFailureException {
    if (outputDirectory.isFile()) {
      // before the analysis, which can take seconds
      throw new MojoExecutionException(
          "chash.outputDirectory " + outputDirectory + " is a file; name a directory");
    }
    Timings time = new Timings();
    AnalysisInputs inputs = inputs(file);
    time.mark("config");
    ReportData data = analyze(inputs, time);
    ConsoleReport.lines(data).forEach(getLog()::info);
    Path dir = outputDirectory.toPath();
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("report.json"), JsonReport.write(data), StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("report.html"), HtmlReport.page(data), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException(
          "cannot write chash report to " + outputDirectory + ": " + e, e);
    }
    time.mark("files");
    getLog()
        .info(
            "chash: wrote "
                + display(dir.resolve("report.json"))
                + " and report.html ("
                + time
                + ")");
  }

  /** Builds the ring, analyzes it, and compares it with the baseline. */
  private ReportData analyze(AnalysisInputs inputs, Timings time) throws MojoExecutionException {
    try {
      RingChange change = RingChange.parse(add, remove);
      Ring ring = inputs.ring();
      time.mark("ring");
      ReportData data = ReportData.analyze(inputs, ring, change);
      time.mark("analysis");
      data = data.withBaseline(compareWithBaseline(inputs, ring));
      time.mark("baseline");
      return data;
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }

  /**
   * Where a report's time goes, for its last log line: each step's wall time, and the JIT's
   * compilation time so far in this JVM (Maven's included), since a fresh JVM compiles the hot
   * loops while it runs them.
   */
  private static final class Timings {
    private final StringBuilder steps = new StringBuilder();
    private long last = System.nanoTime();

    void mark(String step) {
      long now = System.nanoTime();
      steps
          .append(steps.length() == 0 ? "" : ", ")
          .append(step)
          .append(' ')
          .append(Text.number((now - last) / 1_000_000))
          .append(" ms");
      last = now;
    }

    @Override
    public String toString() {
      CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
      return jit != null && jit.isCompilationTimeMonitoringSupported()
          ? steps + "; JIT " + Text.number(jit.getTotalCompilationTime()) + " ms so far"
          : steps.toString();
    }
  }

  // --- the site report ---------------------------------------------------------------------------

  @Override
  public void generate(Sink sink, SinkFactory sinkFactory, Locale locale)
      throws MavenReportException {
    generate(sink, locale);
  }

  @Override
  public void generate(Sink sink, Locale locale) throws MavenReportException {
    ConfigFile file = configFile();
    ReportData data;
    try {
      data = analyze(inputs(file), new Timings());
    } catch (MojoExecutionException | MojoFailureException e) {
      throw new MavenReportException(e.getMessage(), e);
    }
    getLog().info(ConsoleReport.verdict(data.report()) + " (" + file.display() + ")");
    sink.head();
    sink.title();
    sink.text(getName(locale));
    sink.title_();
    sink.head_();
    sink.body();
    sink.section1();
    sink.rawText(HtmlReport.fragment(data));
    sink.section1_();
    sink.body_();
    sink.flush();
    sink.close();
  }

  /** The page's path in the site, without extension: {@code chash-report.html}. */
  @Override
  public String getOutputPath() {
    return "chash-report";
  }

  /** Maven's older name of {@link #getOutputPath()}, still abstract in the interface. */
  @Deprecated
  @Override
  public String getOutputName() {
    return getOutputPath();
  }

  @Override
  public String getCategoryName() {
    return CATEGORY_PROJECT_REPORTS;
  }

  @Override
  public String getName(Locale locale) {
    return "Key distribution";
  }

  @Override
  public String getDescription(Locale locale) {
    return "Expected share of keys per chash node, against its fair share and the skew limit.";
  }

  @Override
  public void setReportOutputDirectory(File directory) {
    this.reportOutputDirectory = directory;
  }

  @Override
  public File getReportOutputDirectory() {
    return reportOutputDirectory;
  }

  @Override
  public boolean isExternalReport() {
    return false;
  }

  /** A module with the configuration gets the page; one without (a parent POM) none. */
  @Override
  public boolean canGenerateReport() {
    return !skipped() && configFile().exists();
  }
}
