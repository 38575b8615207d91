package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The {@code chash.yaml} a goal reads, and how its messages name it: relative to the reactor root
 * ({@code orders/src/main/resources/chash.yaml}), so that the lines of a multi-module or {@code mvn
 * -T} build say which module's file they are about. Immutable.
 *
 * @param file the file, absolute
 * @param display the file relative to the reactor root, or absolute when it lies outside it
 * @param explicit whether the user named it ({@code -Dchash.config}, {@code <config>}); a default
 *     file that does not exist skips the module instead of failing it
 */
record ConfigFile(File file, String display, boolean explicit) {

  /** The default location, relative to the project folder. */
  static final String DEFAULT_PATH = "src/main/resources/" + ChashConfigs.DEFAULT_NAME;

  /**
   * The file named by the user, or the default one of the project.
   *
   * @param named the {@code config} parameter (null: not named)
   * @param basedir the project folder
   * @param reactorRoot the folder messages are relative to
   */
  static ConfigFile of(File named, File basedir, File reactorRoot) {
    File file = (named != null ? named : new File(basedir, DEFAULT_PATH)).getAbsoluteFile();
    return new ConfigFile(file, relative(file.toPath(), reactorRoot), named != null);
  }

  /** {@code path} relative to {@code root} with forward slashes, or absolute when outside it. */
  static String relative(Path path, File root) {
    Path absolute = path.toAbsolutePath().normalize();
    if (root != null) {
      Path base = root.toPath().toAbsolutePath().normalize();
      if (absolute.startsWith(base) && !absolute.equals(base)) {
        return base.relativize(absolute).toString().replace(File.separatorChar, '/');
      }
    }
    return absolute.toString();
  }

  /** Whether the file is there (a directory counts: loading it says what is wrong). */
  boolean exists() {
    return file.exists();
  }

  /** The folder of the file. */
  Path folder() {
    return file.toPath().getParent();
  }

  /**
   * Loads and validates the file.
   *
   * @throws MojoFailureException when it is missing, a directory or invalid; the message lists
   *     every problem as {@code display:line:column: message}
   */
  ChashConfig load() throws MojoFailureException {
    if (Files.isDirectory(file.toPath())) {
      throw new MojoFailureException(
          "chash config file "
              + display
              + " is a directory; point chash.config at the chash.yaml file (-Dchash.config=FILE)");
    }
    if (!Files.isRegularFile(file.toPath())) {
      throw new MojoFailureException(
          "chash config file "
              + display
              + " does not exist; create it or point chash.config at it (-Dchash.config=FILE)");
    }
    try {
      return ChashConfigs.load(file.toPath(), display);
    } catch (ConfigException e) {
      StringBuilder message =
          new StringBuilder(display)
              .append(" has ")
              .append(e.problems().size())
              .append(e.problems().size() == 1 ? " problem:" : " problems:");
      for (ConfigProblem p : e.problems()) {
        message.append('\n').append(p);
      }
      throw new MojoFailureException(message.toString(), e);
    }
  }
}
