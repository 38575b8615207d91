package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ConfigException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.DefaultResourceLoader;

/** chash.yaml from a jar (as in an application's fat jar), where it is no file. */
class ConfigResourcesTest {
  @TempDir Path dir;

  private DefaultResourceLoader jarWith(String name, byte[] content) throws Exception {
    Path jar = dir.resolve("app.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream entries = new JarOutputStream(out)) {
      entries.putNextEntry(new JarEntry(name));
      entries.write(content);
      entries.closeEntry();
    }
    ClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    return new DefaultResourceLoader(loader);
  }

  @Test
  void load_readsAClassPathResourceInsideAJar() throws Exception {
    DefaultResourceLoader loader =
        jarWith(
            "config/chash.yaml",
            "nodes:\n  - id: jar-1\ncaches:\n  users: {}\n".getBytes(StandardCharsets.UTF_8));
    assertThat(loader.getResource("classpath:config/chash.yaml").isFile()).isFalse();
    ChashConfig config = ConfigResources.load(loader, "classpath:config/chash.yaml");
    assertThat(config.nodes()).extracting(n -> n.id()).containsExactly("jar-1");
    assertThat(config.source()).isEqualTo("chash.yaml");
  }

  @Test
  void load_reportsProblemsOfAJarResourceWithLineAndColumn() throws Exception {
    DefaultResourceLoader loader =
        jarWith(
            "chash.yaml", "nodes:\n  - id: a\n    wieght: 2\n".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> ConfigResources.load(loader, "classpath:chash.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("chash.yaml:3:5: ")
        .hasMessageContaining("wieght");
  }

  @Test
  void load_refusesAJarResourceThatIsNotUtf8() throws Exception {
    DefaultResourceLoader loader = jarWith("chash.yaml", new byte[] {'n', (byte) 0xff, '\n'});
    assertThatThrownBy(() -> ConfigResources.load(loader, "classpath:chash.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("chash.yaml:1:1: file is not valid UTF-8");
  }

  @Test
  void load_withoutPrefixIsAClassPathResource() throws Exception {
    DefaultResourceLoader loader =
        jarWith("ring.yaml", "nodes:\n  - id: plain\n".getBytes(StandardCharsets.UTF_8));
    assertThat(ConfigResources.load(loader, "ring.yaml").nodes()).hasSize(1);
  }
}
