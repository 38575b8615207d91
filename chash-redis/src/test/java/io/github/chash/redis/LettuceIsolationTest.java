package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The factory {@link java.util.ServiceLoader} instantiates whenever any node type is looked up must
 * load without the libraries only its nodes use, checked on the compiled class: a class that names
 * a type has the type's internal name in its constant pool. (That chash-runtime never refers to
 * Lettuce needs no test: it does not have it on its compile path.)
 */
class LettuceIsolationTest {

  @Test
  void serviceLoadedFactory_loadsWithoutLettuceOrJackson() throws IOException {
    String constants;
    try (InputStream in =
        RedisCacheNodeFactory.class.getResourceAsStream("RedisCacheNodeFactory.class")) {
      // ISO-8859-1 keeps every byte; the internal names are ASCII
      constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
    assertThat(constants).doesNotContain("io/lettuce/").doesNotContain("com/fasterxml/jackson/");
  }
}
