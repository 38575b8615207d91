package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * Parses and validates {@code chash.yaml}; the build fails on any problem, and the failure lists
 * each on its own line as {@code path/chash.yaml:LINE:COLUMN: message}. The annotations in the
 * compiled classes are checked by {@code chash:annotations}, after compilation.
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
  }
}
