package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineSourceTest {
  private static final String YAML =
      "nodes:\n  - id: a\n    type: local\n  - id: b\n    type: local\n";

  @TempDir Path dir;

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
        BaselineSource.load("chash-baseline.yaml", dir, "chash.baseline", noArtifacts());
    assertThat(loaded.name()).isEqualTo("chash-baseline.yaml");
    assertThat(loaded.config().nodes()).hasSize(2);
  }

  @Test
  void load_directorySaysItIsOneNotThatItDoesNotExist() throws Exception {
    Files.createDirectory(dir.resolve("old"));
    assertThatThrownBy(() -> BaselineSource.load("old", dir, "chash.baseline", noArtifacts()))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith(
            "baseline file " + dir.resolve("old") + " is a directory (chash.baseline;");
  }

  @Test
  void load_missingFileNamesItAndWhereItWasGiven() {
    assertThatThrownBy(
            () ->
                BaselineSource.load("old.yaml", dir, "check.baseline in chash.yaml", noArtifacts()))
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
    assertThatThrownBy(() -> BaselineSource.load("old.yaml", dir, "chash.baseline", noArtifacts()))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("baseline old.yaml has 1 problem:\nold.yaml:4:13: ");
  }

  @Test
  void load_coordinatesReadChashYamlAtTheJarRoot() throws Exception {
    Path jar = jar("chash.yaml", YAML);
    BaselineSource.Loaded loaded =
        BaselineSource.load(
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
    assertThatThrownBy(
            () -> BaselineSource.load("com.example:svc:1.0", dir, "chash.baseline", c -> jar))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessage(
            "baseline artifact com.example:svc:1.0 (release-1.0.jar) has no chash.yaml at its root");
  }

  @Test
  void load_invalidYamlInJarNamesTheArtifact() throws Exception {
    Path jar = jar("chash.yaml", "nodes:\n  - id: a\n    type: locl\n");
    assertThatThrownBy(
            () -> BaselineSource.load("com.example:svc:1.0", dir, "chash.baseline", c -> jar))
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith(
            "baseline com.example:svc:1.0!/chash.yaml has 1 problem:\ncom.example:svc:1.0!/chash.yaml:3:11: ");
  }
}
