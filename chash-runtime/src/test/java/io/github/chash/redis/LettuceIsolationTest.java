package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCaches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules that keep Lettuce optional, checked on the compiled classes: a class that
 * names a type has the type's internal name in its constant pool.
 */
class LettuceIsolationTest {

  @Test
  void cacheConfigAndRing_neverReferToRedisOrLettuce() throws Exception {
    for (String pkg : List.of("cache", "config", "ring")) {
      for (Path c : classesOf(pkg)) {
        assertThat(constants(c))
            .as(c.toString())
            .doesNotContain("io/github/chash/redis/")
            .doesNotContain("io/lettuce/")
            .doesNotContain("com/fasterxml/jackson/");
      }
    }
  }

  @Test
  void serviceLoadedFactory_loadsWithoutLettuceOrJackson() throws Exception {
    Path factory = classFile(RedisCacheNodeFactory.class);
    assertThat(constants(factory))
        .doesNotContain("io/lettuce/")
        .doesNotContain("com/fasterxml/jackson/");
  }

  private static List<Path> classesOf(String pkg) throws URISyntaxException, IOException {
    Path dir = classFile(ShardedCaches.class).getParent().resolveSibling(pkg);
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> classes = files.filter(p -> p.toString().endsWith(".class")).toList();
      assertThat(classes).as("classes of %s", pkg).isNotEmpty();
      return classes;
    }
  }

  private static Path classFile(Class<?> type) throws URISyntaxException {
    return Path.of(type.getResource(type.getSimpleName() + ".class").toURI());
  }

  private static String constants(Path classFile) {
    try {
      // ISO-8859-1 keeps every byte; the internal names are ASCII
      return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
