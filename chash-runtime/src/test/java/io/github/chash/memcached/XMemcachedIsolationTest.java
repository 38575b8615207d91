package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCaches;
import io.github.chash.internal.codec.JdkSerializationCodec;
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
 * The dependency rules that keep XMemcached optional, checked on the compiled classes as {@code
 * LettuceIsolationTest} does for Lettuce: a class that names a type has the type's internal name in
 * its constant pool.
 */
class XMemcachedIsolationTest {

  @Test
  void cacheConfigRingRedisAndCodecs_neverReferToMemcachedOrXMemcached() throws Exception {
    for (Path dir :
        List.of(
            dirOf(ShardedCaches.class),
            dirOf(ShardedCaches.class).resolveSibling("config"),
            dirOf(ShardedCaches.class).resolveSibling("ring"),
            dirOf(ShardedCaches.class).resolveSibling("redis"),
            dirOf(JdkSerializationCodec.class))) {
      for (Path c : classesIn(dir)) {
        assertThat(constants(c))
            .as(c.toString())
            .doesNotContain("io/github/chash/memcached/")
            .doesNotContain("net/rubyeye/");
      }
    }
  }

  @Test
  void serviceLoadedFactory_loadsWithoutXMemcachedOrJackson() throws Exception {
    Path factory = classFile(MemcachedCacheNodeFactory.class);
    assertThat(constants(factory))
        .doesNotContain("net/rubyeye/")
        .doesNotContain("com/google/code/yanf4j/")
        .doesNotContain("com/fasterxml/jackson/");
  }

  private static Path dirOf(Class<?> type) throws URISyntaxException {
    return classFile(type).getParent();
  }

  private static List<Path> classesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> classes = files.filter(p -> p.toString().endsWith(".class")).toList();
      assertThat(classes).as("classes of %s", dir).isNotEmpty();
      return classes;
    }
  }

  private static Path classFile(Class<?> type) throws URISyntaxException {
    return Path.of(type.getResource(type.getSimpleName() + ".class").toURI());
  }

  private static String constants(Path classFile) {
    try {
      return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
