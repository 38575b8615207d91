package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.CheckConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files a user points the goals at: chash.yaml and keys files. */
class ConfigFileTest {
  private final Ring ring =
      Rings.create(RingSettings.defaults(), List.of(Node.of("a"), Node.of("b")));

  @TempDir Path dir;

  @Test
  void of_defaultFile_isNamedRelativeToTheReactorRoot_andNotExplicit() {
    File module = dir.resolve("orders").toFile();
    ConfigFile file = ConfigFile.of(null, module, dir.toFile());
    assertThat(file.display()).isEqualTo("orders/src/main/resources/chash.yaml");
    assertThat(file.explicit()).isFalse();
    assertThat(file.exists()).isFalse();
    ConfigFile named = ConfigFile.of(new File(module, "conf/ring.yaml"), module, dir.toFile());
    assertThat(named.display()).isEqualTo("orders/conf/ring.yaml");
    assertThat(named.explicit()).isTrue();
  }

  @Test
  void relative_outsideTheRoot_isAbsolute() {
    Path elsewhere = dir.resolve("x/chash.yaml");
    assertThat(ConfigFile.relative(elsewhere, dir.resolve("other").toFile()))
        .isEqualTo(elsewhere.toString());
  }

  @Test
  void load_problemsNameTheFileRelativeToTheRoot() throws IOException {
    Path yaml = dir.resolve("orders/src/main/resources/chash.yaml");
    Files.createDirectories(yaml.getParent());
    Files.writeString(yaml, "nodes:\n  - id: a\n    weight: -1\n");
    ConfigFile file = ConfigFile.of(null, dir.resolve("orders").toFile(), dir.toFile());
    assertThatThrownBy(file::load)
        .isInstanceOf(MojoFailureException.class)
        .hasMessageStartingWith(
            "orders/src/main/resources/chash.yaml has 1 problem:\n"
                + "orders/src/main/resources/chash.yaml:3:13: nodes[0].weight");
  }

  @Test
  void load_directoryAsConfig_saysItIsADirectoryNotThatItDoesNotExist() {
    ConfigFile file = ConfigFile.of(dir.toFile(), dir.toFile(), dir.getParent().toFile());
    assertThatThrownBy(file::load)
        .isInstanceOf(MojoFailureException.class)
        .hasMessage(
            "chash config file "
                + dir.getFileName()
                + " is a directory; point chash.config at the chash.yaml file (-Dchash.config=FILE)");
  }

  @Test
  void load_missingExplicitConfig_saysItDoesNotExist() {
    ConfigFile file = ConfigFile.of(dir.resolve("chash.yaml").toFile(), dir.toFile(), dir.toFile());
    assertThatThrownBy(file::load)
        .isInstanceOf(MojoFailureException.class)
        .hasMessageStartingWith("chash config file chash.yaml does not exist");
  }

  @Test
  void locateAll_byteOrderMarkAndCrlfAreNotPartOfTheKeys() throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.write(keys, "\uFEFFk1\r\n\r\nk2\r\n".getBytes(StandardCharsets.UTF_8));
    StringWriter out = new StringWriter();
    assertThat(LocateMojo.locateAll(ring, keys.toFile(), out)).isEqualTo(2);
    assertThat(out.toString())
        .isEqualTo("k1\t" + ring.locate("k1").id() + "\nk2\t" + ring.locate("k2").id() + "\n");
  }

  @Test
  void locateAll_notUtf8NamesFileAndLine() throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.write(keys, "k1\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> LocateMojo.locateAll(ring, keys.toFile(), new StringWriter()))
        .isInstanceOf(IOException.class)
        .hasMessage("keys file " + keys + " is not valid UTF-8: byte 0xe9 at line 2");
  }

  @Test
  void locateAll_missingFileSaysSo() {
    Path keys = dir.resolve("keys.txt");
    assertThatThrownBy(() -> LocateMojo.locateAll(ring, keys.toFile(), new StringWriter()))
        .isInstanceOf(IOException.class)
        .hasMessage("keys file " + keys + " does not exist");
  }

  @Test
  void locateAll_anOverlongLine_namesFileAndLine() throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.writeString(keys, "a\n" + "\0".repeat(70_000));
    StringWriter out = new StringWriter();
    assertThatThrownBy(() -> LocateMojo.locateAll(ring, keys.toFile(), out))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "keys file "
                + keys
                + " line 2 is longer than 65536 characters; put one key a line (is it a binary"
                + " file?)");
  }

  @Test
  void inputs_configuredKeysFileWithAnOverlongLine_namesTheConfigKeyFileAndLine()
      throws IOException {
    Path keys = dir.resolve("src/main/resources/real-keys.txt");
    Files.createDirectories(keys.getParent());
    Files.writeString(keys, "a\nb\n" + "x".repeat(65_537) + "\n");
    ChashConfig config =
        config(new CheckConfig(1.2, 10, "k{n}", "real-keys.txt", null, null, null));
    ConfigFile file = ConfigFile.of(null, dir.toFile(), dir.toFile());
    assertThatThrownBy(() -> AnalysisInputs.of(config, file, null, null, null, null, null))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "check.keysFile of src/main/resources/chash.yaml: keys file "
                + keys
                + " line 3 is longer than 65536 characters; put one key a line (is it a binary"
                + " file?)");
  }

  @Test
  void inputs_missingConfiguredKeysFile_namesTheConfigKeyItCameFrom() {
    ChashConfig config =
        config(new CheckConfig(1.2, 10, "k{n}", "real-keys.txt", null, null, null));
    ConfigFile file = ConfigFile.of(null, dir.toFile(), dir.toFile());
    assertThatThrownBy(() -> AnalysisInputs.of(config, file, null, null, null, null, null))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "check.keysFile of src/main/resources/chash.yaml: keys file "
                + dir.resolve("src/main/resources/real-keys.txt")
                + " does not exist");
  }

  @Test
  void inputs_commandLineOverridesTheCheckBlock() throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.writeString(keys, "x\ny\n");
    ChashConfig config = config(new CheckConfig(1.3, 1234, "orders:{n}", null, null, null, null));
    ConfigFile file = ConfigFile.of(null, dir.toFile(), dir.toFile());
    AnalysisInputs fromConfig = AnalysisInputs.of(config, file, null, null, null, null, null);
    assertThat(fromConfig.limit()).isEqualTo(1.3);
    assertThat(fromConfig.keys().description()).isEqualTo("orders:{n}");
    assertThat(fromConfig.keys().size()).isEqualTo(1234);
    assertThat(fromConfig.top()).isEqualTo(AnalysisInputs.DEFAULT_TOP);
    AnalysisInputs overridden = AnalysisInputs.of(config, file, 1.1, 10, null, "p{n}", 3);
    assertThat(overridden.limit()).isEqualTo(1.1);
    assertThat(overridden.keys().size()).isEqualTo(10);
    assertThat(overridden.keys().key(3, new StringBuilder()).toString()).isEqualTo("p3");
    assertThat(overridden.top()).isEqualTo(3);
    assertThat(AnalysisInputs.of(config, file, null, null, keys.toFile(), null, null).keys().size())
        .isEqualTo(2);
    assertThatThrownBy(
            () -> AnalysisInputs.fromOverrides(config, file, "abc", null, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chash.maxSkew must be a number, was \"abc\"");
    assertThatThrownBy(
            () -> AnalysisInputs.fromOverrides(config, file, null, null, null, null, "0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chash.top must be an integer of at least 1, was 0");
  }

  private static ChashConfig config(CheckConfig check) {
    return ChashConfig.builder()
        .source("chash.yaml")
        .ring(RingSettings.defaults())
        .nodes(List.of(NodeConfig.local("a")))
        .check(check)
        .build();
  }
}
