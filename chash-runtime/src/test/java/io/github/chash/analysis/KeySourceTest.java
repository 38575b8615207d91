package io.github.chash.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeySourceTest {

  @Test
  void pattern_replacesPlaceholderWithIndex() {
    KeySource keys = KeySource.pattern("users:{n}:profile", 3);
    StringBuilder scratch = new StringBuilder();
    assertThat(keys.size()).isEqualTo(3);
    assertThat(keys.key(0, scratch).toString()).isEqualTo("users:0:profile");
    assertThat(keys.key(2, scratch).toString()).isEqualTo("users:2:profile");
    assertThat(keys.description()).isEqualTo("users:{n}:profile");
  }

  @Test
  void pattern_withoutPlaceholderAppendsIndex() {
    assertThat(KeySource.pattern("k", 20).key(17, new StringBuilder()).toString()).isEqualTo("k17");
  }

  @Test
  void pattern_twoPlaceholdersAreRejected() {
    assertThatThrownBy(() -> KeySource.pattern("{n}-{n}", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{n}-{n}");
  }

  @Test
  void pattern_negativeCountIsRejected() {
    assertThatThrownBy(() -> KeySource.pattern("k{n}", -1))
        .hasMessage("sample key count must not be negative; was -1");
  }

  @Test
  void file_readsLinesAndSkipsEmptyOnes(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("keys.txt");
    Files.writeString(file, "a\n\nb\nc\n");
    KeySource keys = KeySource.file(file);
    assertThat(keys.size()).isEqualTo(3);
    assertThat(keys.key(1, new StringBuilder()).toString()).isEqualTo("b");
    assertThat(keys.description()).isEqualTo("keys.txt");
  }

  @Test
  void file_missingFileNamesIt(@TempDir Path dir) {
    Path missing = dir.resolve("nope.txt");
    assertThatThrownBy(() -> KeySource.file(missing))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("nope.txt");
  }

  @Test
  void of_keepsOrder() {
    KeySource keys = KeySource.of(List.of("x", "y"));
    assertThat(keys.key(0, new StringBuilder()).toString()).isEqualTo("x");
    assertThat(keys.key(1, new StringBuilder()).toString()).isEqualTo("y");
  }
}
