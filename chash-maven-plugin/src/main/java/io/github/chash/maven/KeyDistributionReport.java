package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ConfigException;
import java.io.File;
import java.io.UncheckedIOException;
import java.util.Locale;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.reporting.AbstractMavenReport;
import org.apache.maven.reporting.MavenReportException;

/**
 * The {@code mvn site} page "Key distribution" ({@code chash-report.html}): the same charts and
 * table as {@code chash:report}. Configure the plugin under {@code <reporting>} to get it.
 */
@Mojo(name = "site-report", defaultPhase = LifecyclePhase.SITE, threadSafe = true)
public class KeyDistributionReport extends AbstractMavenReport {

  /**
   * Skips the report.
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

  /**
   * Largest allowed skew. Default: {@code check.maxSkew} of {@code chash.yaml}, else 1.20.
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
   * A file of real keys, one a line. Default: {@code check.keysFile}, else none.
   *
   * <pre>{@code <keysFile>${project.basedir}/keys.txt</keysFile>}</pre>
   */
  @Parameter(property = "chash.keysFile")
  private File keysFile;

  /**
   * Pattern of the synthetic keys. Default: {@code check.keyPattern}, else {@code key:{n}}.
   *
   * <pre>{@code <keyPattern>users:{n}</keyPattern>}</pre>
   */
  @Parameter(property = "chash.keyPattern")
  private String keyPattern;

  /** Creates the report. */
  public KeyDistributionReport() {}

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
  public String getName(Locale locale) {
    return "Key distribution";
  }

  @Override
  public String getDescription(Locale locale) {
    return "Expected share of keys per chash node, against its fair share and the skew limit.";
  }

  @Override
  public boolean canGenerateReport() {
    return !skip && config.isFile();
  }

  @Override
  protected void executeReport(Locale locale) throws MavenReportException {
    ReportWriter result;
    try {
      ChashConfig loaded = AbstractChashMojo.load(config, getLog());
      AnalysisInputs inputs =
          AnalysisInputs.fromOverrides(loaded, config, maxSkew, sampleKeys, keysFile, keyPattern);
      result = ReportWriter.analyze(inputs, null);
    } catch (MojoFailureException
        | ConfigException
        | IllegalArgumentException
        | UncheckedIOException e) {
      throw new MavenReportException(e.getMessage(), e);
    }
    Sink sink = getSink();
    sink.head();
    sink.title();
    sink.text(getName(locale));
    sink.title_();
    sink.head_();
    sink.body();
    sink.section1();
    sink.sectionTitle1();
    sink.text(getName(locale));
    sink.sectionTitle1_();
    sink.rawText(HtmlSiteFragment.of(result));
    sink.section1_();
    sink.body_();
    sink.flush();
    sink.close();
  }
}
