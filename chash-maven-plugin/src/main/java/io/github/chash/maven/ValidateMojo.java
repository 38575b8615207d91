package io.github.chash.maven;

import io.github.chash.analysis.NodeOrder;
import io.github.chash.config.ChashConfig;
import java.util.Map;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.eclipse.aether.RepositorySystem;

/**
 * Parses and validates {@code chash.yaml}; the build fails on any problem, and the failure lists
 * each on its own line as {@code path/chash.yaml:LINE:COLUMN: message}. The annotations in the
 * compiled classes are checked by {@code chash:annotations}, after compilation.
 *
 * <p>For an order-sensitive algorithm ({@code jump}, {@code jedis}) with a baseline named ({@code
 * chash.baseline} or {@code check.baseline}), it warns when a node that stays changed its list
 * position, since that moves its keys; {@code chash:check} measures how many.
 */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public class ValidateMojo extends AbstractChashMojo {

  /**
   * The configuration whose node order is compared, for {@code jump} and {@code jedis}: a file
   * (relative to the project folder), {@code groupId:artifactId:version}, {@code git:REF} or {@code
   * none}. Default: {@code check.baseline} of {@code chash.yaml}, else none.
   *
   * <pre>
   * &lt;baseline&gt;com.example:orders-service:1.4.0&lt;/baseline&gt;
   * </pre>
   */
  @Parameter(property = "chash.baseline")
  private String baseline;

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
  protected void run(ConfigFile file) throws MojoFailureException {
    ChashConfig config = file.load();
    getLog()
        .info(
            "chash: "
                + file.display()
                + " is valid: "
                + Text.count(config.nodes().size(), "node")
                + ", algorithm "
                + config.ring().algorithm().configName()
                + ", hash "
                + config.ring().hash().name());
    warnOnReorderedNodes(config, file);
  }

  /** Warns when the nodes of jump or jedis moved in the list against the baseline. */
  private void warnOnReorderedNodes(ChashConfig config, ConfigFile file) {
    if (!config.ring().algorithm().orderSensitive()) {
      return;
    }
    BaselineSource.Named named =
        BaselineSource.named(
            baseline, config.check(), project() == null ? null : project().getBasedir(), file);
    if (named == null) {
      return;
    }
    try {
      BaselineSource.Loaded loaded =
          named.load(
              BaselineSource.mavenResolver(repositorySystem, session(), project()),
              new GitBaseline(Map.of()),
              file,
              getLog()::info);
      if (loaded != null) {
        NodeOrder.change(loaded.config(), config)
            .ifPresent(
                change ->
                    getLog()
                        .warn(
                            "chash: "
                                + file.display()
                                + " against baseline "
                                + loaded.name()
                                + ", "
                                + change));
      }
    } catch (MojoExecutionException e) {
      // validate checks this file; a broken baseline fails chash:check, not validate
      getLog().warn("chash: cannot compare the node order with the baseline: " + e.getMessage());
    }
  }
}
