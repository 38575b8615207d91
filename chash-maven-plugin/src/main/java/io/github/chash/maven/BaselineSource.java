package io.github.chash.maven;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.ConfigException;
import io.github.chash.config.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Loads the baseline configuration: a {@code chash.yaml}-shaped file, or the {@code chash.yaml} at
 * the root of a released artifact given as {@code groupId:artifactId:version}. Plain Java apart
 * from the resolver it is handed, so tests need no Maven. Stateless.
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

  /**
   * A loaded baseline.
   *
   * @param name how messages name it: the path as given, or the coordinates
   * @param config its configuration
   */
  record Loaded(String name, ChashConfig config) {}

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

  /** Whether the spec is {@code groupId:artifactId:version} rather than a file. */
  static boolean isCoordinates(String spec) {
    return COORDINATES.matcher(spec).matches();
  }

  /**
   * Loads the baseline.
   *
   * @param spec a file path or {@code groupId:artifactId:version}
   * @param relativeTo the folder a relative path is resolved against
   * @param origin where the spec was given, for messages ({@code check.baseline in chash.yaml})
   * @throws MojoExecutionException when the file or artifact is missing, has no configuration or an
   *     invalid one, listing every problem as {@code file:line:column: message}
   */
  static Loaded load(String spec, Path relativeTo, String origin, ArtifactResolver resolver)
      throws MojoExecutionException {
    String trimmed = spec.strip();
    if (trimmed.isEmpty()) {
      throw new MojoExecutionException("baseline must not be blank (" + origin + ")");
    }
    if (isCoordinates(trimmed)) {
      Path jar = resolver.resolve(trimmed);
      return new Loaded(trimmed, fromArtifact(trimmed, jar));
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
      return new Loaded(trimmed, ChashConfigs.load(file));
    } catch (ConfigException e) {
      throw invalid("baseline " + trimmed, e);
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
      yaml =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
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
