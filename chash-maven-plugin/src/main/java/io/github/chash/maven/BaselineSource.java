package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.CheckConfig;
import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;
import io.github.chash.internal.text.Utf8;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;

/**
 * Loads the baseline configuration: a {@code chash.yaml}-shaped file, the {@code chash.yaml} at the
 * root of a released artifact given as {@code groupId:artifactId:version}, the same file at the
 * merge-base with a git ref ({@code git:REF}, see {@link GitBaseline}), or none ({@code none}).
 * Plain Java apart from the resolver it is handed, so tests need no Maven. Stateless.
 */
final class BaselineSource {
  /** {@code groupId:artifactId:version}: three parts, no path separators or spaces. */
  private static final Pattern COORDINATES =
      Pattern.compile("[^:/\\\\\\s]+:[^:/\\\\\\s]+:[^:/\\\\\\s]+");

  /** The entry of an artifact that holds its configuration. */
  static final String ENTRY = ChashConfigs.DEFAULT_NAME;

  private BaselineSource() {}

  /** Resolves coordinates to the artifact's file (through Maven in the plugin). */
  @FunctionalInterface
  interface ArtifactResolver {
    /**
     * Returns the jar of {@code groupId:artifactId:version}.
     *
     * @throws MojoExecutionException when it cannot be resolved, naming it
     */
    Path resolve(String coordinates) throws MojoExecutionException;
  }

  /** The spec that turns the default git baseline off. */
  static final String NONE = "none";

  /** The prefix of a git ref spec. */
  static final String GIT = "git:";

  /**
   * A loaded baseline.
   *
   * @param name how messages name it: the path as given, the coordinates, or {@code git:REF@COMMIT}
   * @param config its configuration
   * @param detail one line saying what was compared, or null when the name says it all
   */
  record Loaded(String name, ChashConfig config, String detail) {}

  /**
   * Resolves coordinates through Maven's repository system, from the project's remote repositories.
   */
  static ArtifactResolver mavenResolver(
      RepositorySystem repositorySystem, MavenSession session, MavenProject project) {
    return coordinates -> {
      if (repositorySystem == null || session == null || project == null) {
        throw new MojoExecutionException(
            "cannot resolve baseline artifact " + coordinates + ": no Maven repository session");
      }
      try {
        ArtifactRequest request =
            new ArtifactRequest(
                new DefaultArtifact(coordinates), project.getRemoteProjectRepositories(), null);
        return repositorySystem
            .resolveArtifact(session.getRepositorySession(), request)
            .getArtifact()
            .getFile()
            .toPath();
      } catch (ArtifactResolutionException | IllegalArgumentException e) {
        throw new MojoExecutionException(
            "cannot resolve baseline artifact " + coordinates + ": " + e.getMessage(), e);
      }
    };
  }

  /**
   * A baseline named by the user: the spec, the folder a relative path is resolved against, and
   * where it was given, for messages.
   */
  record Named(String spec, Path relativeTo, String origin) {
    /** Loads it; see {@link BaselineSource#load}. */
    Loaded load(
        ArtifactResolver resolver, GitBaseline git, ConfigFile current, Consumer<String> info)
        throws MojoExecutionException {
      return BaselineSource.load(spec, relativeTo, origin, resolver, git, current, info);
    }
  }

  /**
   * The baseline the user named: the {@code chash.baseline} parameter (relative to the project
   * folder), else {@code check.baseline} (relative to {@code chash.yaml}); null when neither names
   * one (then the goals that compare use the git default).
   *
   * @param basedir the project folder, or null outside Maven (the working directory)
   */
  static Named named(String parameter, CheckConfig check, File basedir, ConfigFile current) {
    if (parameter != null && !parameter.isBlank()) {
      return new Named(
          parameter, basedir != null ? basedir.toPath() : Path.of(""), "chash.baseline");
    }
    if (check.baseline() != null) {
      return new Named(
          check.baseline(), current.folder(), "check.baseline in " + current.display());
    }
    return null;
  }

  /** Whether the spec is {@code groupId:artifactId:version} rather than a file. */
  static boolean isCoordinates(String spec) {
    return COORDINATES.matcher(spec).matches();
  }

  /**
   * Loads the baseline.
   *
   * @param spec a file path, {@code groupId:artifactId:version}, {@code git:REF} or {@code none}
   * @param relativeTo the folder a relative path is resolved against
   * @param origin where the spec was given, for messages ({@code check.baseline in chash.yaml})
   * @param git finds {@code git:REF} baselines of {@code current}
   * @param current the configuration being compared
   * @param info takes the one line saying why there is no baseline
   * @return the baseline, or null when there is none ({@code none}, or a {@code git:REF} that
   *     cannot be compared, said through {@code info})
   * @throws MojoExecutionException when the file or artifact is missing, has no configuration or an
   *     invalid one, listing every problem as {@code file:line:column: message}, or the git ref is
   *     no commit
   */
  static Loaded load(
      String spec,
      Path relativeTo,
      String origin,
      ArtifactResolver resolver,
      GitBaseline git,
      ConfigFile current,
      Consumer<String> info)
      throws MojoExecutionException {
    String trimmed = spec.strip();
    if (trimmed.isEmpty()) {
      throw new MojoExecutionException("baseline must not be blank (" + origin + ")");
    }
    if (trimmed.equals(NONE)) {
      info.accept("chash: no baseline for " + current.display() + " (" + origin + " is none)");
      return null;
    }
    if (trimmed.startsWith(GIT)) {
      String ref = trimmed.substring(GIT.length()).strip();
      if (ref.isEmpty()) {
        throw new MojoExecutionException(
            "baseline git: needs a ref, e.g. git:main or git:v1.4.0 (" + origin + ")");
      }
      try {
        return fromGit(git, current, ref, info);
      } catch (IllegalArgumentException e) {
        throw new MojoExecutionException(e.getMessage() + " (" + origin + ")", e);
      }
    }
    if (isCoordinates(trimmed)) {
      Path jar = resolver.resolve(trimmed);
      return new Loaded(trimmed, fromArtifact(trimmed, jar), null);
    }
    Path file = relativeTo.resolve(trimmed);
    if (!Files.isRegularFile(file)) {
      throw new MojoExecutionException(
          "baseline file "
              + file
              + (Files.isDirectory(file) ? " is a directory" : " does not exist")
              + " ("
              + origin
              + "; a file path, or groupId:artifactId:version of an artifact with a chash.yaml)");
    }
    try {
      return new Loaded(trimmed, ChashConfigs.load(file), null);
    } catch (ConfigException e) {
      throw invalid("baseline " + trimmed, e);
    }
  }

  /**
   * The git baseline of {@code current}: its content at the merge-base of HEAD and {@code ref}
   * (null: the default branch).
   *
   * @return the baseline, or null after telling {@code info} why there is none
   * @throws MojoExecutionException when the file at the merge-base is invalid
   * @throws IllegalArgumentException when {@code ref} is no commit
   */
  static Loaded fromGit(GitBaseline git, ConfigFile current, String ref, Consumer<String> info)
      throws MojoExecutionException {
    GitBaseline.Outcome outcome = git.find(current.file(), current.display(), ref);
    if (outcome instanceof GitBaseline.NotFound none) {
      info.accept("chash: no baseline for " + current.display() + ": " + none.reason());
      return null;
    }
    GitBaseline.Found found = (GitBaseline.Found) outcome;
    try {
      return new Loaded(
          found.name(), ChashConfigs.parse(found.yaml(), found.source()), found.detail());
    } catch (ConfigException e) {
      throw invalid("baseline " + found.name(), e);
    }
  }

  private static ChashConfig fromArtifact(String coordinates, Path jar)
      throws MojoExecutionException {
    String source = coordinates + "!/" + ENTRY;
    byte[] bytes;
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      ZipEntry entry = zip.getEntry(ENTRY);
      if (entry == null) {
        throw new MojoExecutionException(
            "baseline artifact "
                + coordinates
                + " ("
                + jar.getFileName()
                + ") has no "
                + ENTRY
                + " at its root");
      }
      try (InputStream in = zip.getInputStream(entry)) {
        bytes = in.readAllBytes();
      }
    } catch (IOException e) {
      throw new MojoExecutionException(
          "cannot read " + ENTRY + " of baseline artifact " + coordinates + " (" + jar + "): " + e,
          e);
    }
    String yaml;
    try {
      yaml = Utf8.decodeStrictly(bytes);
    } catch (CharacterCodingException e) {
      throw new MojoExecutionException(source + " is not valid UTF-8", e);
    }
    try {
      return ChashConfigs.parse(yaml, source);
    } catch (ConfigException e) {
      throw invalid("baseline " + source, e);
    }
  }

  private static MojoExecutionException invalid(String what, ConfigException e) {
    StringBuilder message =
        new StringBuilder(what)
            .append(" has ")
            .append(e.problems().size())
            .append(e.problems().size() == 1 ? " problem:" : " problems:");
    for (ConfigProblem p : e.problems()) {
      message.append('\n').append(p);
    }
    return new MojoExecutionException(message.toString(), e);
  }
}
