package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineSourceTest {
  private static final String YAML =
      "nodes:\n  - id: a\n    type: local\n  - id: b\n    type: local\n";

  @TempDir Path dir;

  private final List<String> infos = new ArrayList<>();

  /** The real loader, for a configuration in {@code dir} outside any git repository. */
  private BaselineSource.Loaded load(
      String spec, Path relativeTo, String origin, BaselineSource.ArtifactResolver resolver)
      throws MojoExecutionException {
    return BaselineSource.load(
        spec,
        relativeTo,
        origin,
        resolver,
        new GitBaseline(Map.of("GIT_CEILING_DIRECTORIES", dir.getParent().toString())),
        ConfigFile.of(null, dir.toFile(), dir.toFile()),
        infos::add);
  }

  private static BaselineSource.ArtifactResolver noArtifacts() {
    return coordinates -> {
      throw new AssertionError("not a file spec: " + coordinates);
    };
  }

  private Path jar(String entry, String text) throws IOException {
    Path jar = dir.resolve("release-1.0.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(entry));
      zip.write(text.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return jar;
  }

  @Test
  void isCoordinates_onlyThreeColonSeparatedParts() {
    assertThat(BaselineSource.isCoordinates("com.example:svc:1.4.0")).isTrue();
    assertThat(BaselineSource.isCoordinates("chash-baseline.yaml")).isFalse();
    assertThat(BaselineSource.isCoordinates("conf/chash.yaml")).isFalse();
    assertThat(BaselineSource.isCoordinates("C:\\conf\\chash.yaml")).isFalse();
    assertThat(BaselineSource.isCoordinates("a:b")).isFalse();
    assertThat(BaselineSource.isCoordinates("a:b:c:d")).isFalse();
  }

  @Test
  void load_fileRelativeToTheGivenFolder() throws Exception {
    Files.writeString(dir.resolve("chash-baseline.yaml"), YAML);
    BaselineSource.Loaded loaded =
        load("chash-baseline.yaml", dir, "chash.baseline", noArtifacts());
    assertThat(loaded.name()).isEqualTo("chash-baseline.yaml");
    assertThat(loaded.config().nodes()).hasSize(2);
  }

  @Test
  void load_directorySaysItIsOneNotThatItDoesNotExist() throws Exception {
    Files.createDirectory(dir.resolve("old"));
    assertThatThrownBy(() -> load("old", dir, "chash.baseline", noArtifacts()))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith(
            "baseline file " + dir.resolve("old") + " is a directory (chash.baseline;");
  }

  @Test
  void load_missingFileNamesItAndWhereItWasGiven() {
    assertThatThrownBy(() -> load("old.yaml", dir, "check.baseline in chash.yaml", noArtifacts()))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith(
            "baseline file "
                + dir.resolve("old.yaml")
                + " does not exist (check.baseline in chash.yaml;");
  }

  @Test
  void load_invalidFileListsProblemsWithTheBaselineFileName() throws Exception {
    Files.writeString(
        dir.resolve("old.yaml"), "nodes:\n  - id: a\n    type: local\n    weight: -1\n");
    assertThatThrownBy(() -> load("old.yaml", dir, "chash.baseline", noArtifacts()))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("baseline old.yaml has 1 problem:\nold.yaml:4:13: ");
  }

  @Test
  void load_coordinatesReadChashYamlAtTheJarRoot() throws Exception {
    Path jar = jar("chash.yaml", YAML);
    BaselineSource.Loaded loaded =
        load(
            "com.example:svc:1.0",
            dir,
            "chash.baseline",
            c -> {
              assertThat(c).isEqualTo("com.example:svc:1.0");
              return jar;
            });
    assertThat(loaded.name()).isEqualTo("com.example:svc:1.0");
    assertThat(loaded.config().source()).isEqualTo("com.example:svc:1.0!/chash.yaml");
    assertThat(loaded.config().ringNodes()).extracting(n -> n.id()).containsExactly("a", "b");
  }

  @Test
  void load_jarWithoutChashYamlSaysSo() throws Exception {
    Path jar = jar("config/chash.yaml", YAML);
    assertThatThrownBy(() -> load("com.example:svc:1.0", dir, "chash.baseline", c -> jar))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessage(
            "baseline artifact com.example:svc:1.0 (release-1.0.jar) has no chash.yaml at its root");
  }

  @Test
  void load_invalidYamlInJarNamesTheArtifact() throws Exception {
    Path jar = jar("chash.yaml", "nodes:\n  - id: a\n    type: locl\n");
    assertThatThrownBy(() -> load("com.example:svc:1.0", dir, "chash.baseline", c -> jar))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith(
            "baseline com.example:svc:1.0!/chash.yaml has 1 problem:\ncom.example:svc:1.0!/chash.yaml:3:11: ");
  }

  @Test
  void load_none_isNoBaseline_saidInOneLine() throws Exception {
    assertThat(load(" none ", dir, "chash.baseline", noArtifacts())).isNull();
    assertThat(infos)
        .containsExactly(
            "chash: no baseline for src/main/resources/chash.yaml (chash.baseline is none)");
  }

  @Test
  void load_gitRefOutsideARepository_isNoBaseline_saidInOneLine() throws Exception {
    assertThat(load("git:main", dir, "chash.baseline", noArtifacts())).isNull();
    assertThat(infos)
        .containsExactly(
            "chash: no baseline for src/main/resources/chash.yaml: not in a git repository");
  }

  @Test
  void load_gitWithoutRef_namesAnExample() {
    assertThatThrownBy(() -> load("git:", dir, "check.baseline in chash.yaml", noArtifacts()))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessage(
            "baseline git: needs a ref, e.g. git:main or git:v1.4.0 (check.baseline in chash.yaml)");
  }
}
