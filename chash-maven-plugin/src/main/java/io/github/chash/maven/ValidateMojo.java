package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * Parses and validates {@code chash.yaml}: every problem is logged on its own line as {@code
 * chash.yaml:LINE:COLUMN: message}, and the build fails on any.
 */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public class ValidateMojo extends AbstractChashMojo {

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
  }
}
