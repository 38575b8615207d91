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
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files a user points the goals at: chash.yaml and keys files. */
class ConfigFileTest {
  private final Ring ring =
      Rings.create(RingSettings.defaults(), List.of(Node.of("a"), Node.of("b")));

  @Test
  void load_directoryAsConfig_saysItIsADirectoryNotThatItDoesNotExist(@TempDir Path dir) {
    assertThatThrownBy(() -> AbstractChashMojo.load(dir.toFile(), new SystemStreamLog()))
        .isInstanceOf(MojoFailureException.class)
        .hasMessage(
            "chash config file "
                + dir
                + " is a directory; point chash.config at the chash.yaml file (-Dchash.config=FILE)");
  }

  @Test
  void load_missingConfig_saysItDoesNotExist(@TempDir Path dir) {
    assertThatThrownBy(
            () -> AbstractChashMojo.load(dir.resolve("chash.yaml").toFile(), new SystemStreamLog()))
        .isInstanceOf(MojoFailureException.class)
        .hasMessageStartingWith(
            "chash config file " + dir.resolve("chash.yaml") + " does not exist");
  }

  @Test
  void locateAll_byteOrderMarkAndCrlfAreNotPartOfTheKeys(@TempDir Path dir) throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.write(keys, "\uFEFFk1\r\n\r\nk2\r\n".getBytes(StandardCharsets.UTF_8));
    StringWriter out = new StringWriter();
    assertThat(LocateMojo.locateAll(ring, keys.toFile(), out)).isEqualTo(2);
    assertThat(out.toString())
        .isEqualTo("k1\t" + ring.locate("k1").id() + "\nk2\t" + ring.locate("k2").id() + "\n");
  }

  @Test
  void locateAll_notUtf8NamesFileAndLine(@TempDir Path dir) throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.write(keys, "k1\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> LocateMojo.locateAll(ring, keys.toFile(), new StringWriter()))
        .isInstanceOf(IOException.class)
        .hasMessage("keys file " + keys + " is not valid UTF-8: byte 0xe9 at line 2");
  }

  @Test
  void locateAll_missingFileSaysSo(@TempDir Path dir) {
    Path keys = dir.resolve("keys.txt");
    assertThatThrownBy(() -> LocateMojo.locateAll(ring, keys.toFile(), new StringWriter()))
        .isInstanceOf(IOException.class)
        .hasMessage("keys file " + keys + " does not exist");
  }

  @Test
  void inputs_missingConfiguredKeysFile_namesTheConfigKeyItCameFrom(@TempDir Path dir) {
    ChashConfig config =
        ChashConfig.builder()
            .source("chash.yaml")
            .ring(RingSettings.defaults())
            .nodes(List.of(NodeConfig.local("a")))
            .check(new CheckConfig(1.2, 10, "k{n}", "real-keys.txt", null, null, null))
            .build();
    assertThatThrownBy(
            () ->
                AnalysisInputs.of(
                    config, dir.resolve("chash.yaml").toFile(), null, null, null, null))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "check.keysFile of chash.yaml: keys file "
                + dir.resolve("real-keys.txt")
                + " does not exist");
  }
}
