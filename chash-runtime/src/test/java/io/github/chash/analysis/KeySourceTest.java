package io.github.chash.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
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
        .hasMessage("sample key count must not be negative, was -1");
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
  void file_missingFileSaysItDoesNotExist(@TempDir Path dir) {
    Path missing = dir.resolve("nope.txt");
    assertThatThrownBy(() -> KeySource.file(missing))
        .hasMessage("keys file " + missing + " does not exist");
  }

  @Test
  void file_directorySaysItIsOne(@TempDir Path dir) {
    assertThatThrownBy(() -> KeySource.file(dir))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("keys file " + dir + " is a directory, not a file");
  }

  @Test
  void file_crlfLineEndsAreNotPartOfTheKeys(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("keys.txt");
    Files.writeString(file, "a\r\n\r\nb\r\n");
    KeySource keys = KeySource.file(file);
    assertThat(List.of(keys.key(0, new StringBuilder()), keys.key(1, new StringBuilder())))
        .containsExactly("a", "b");
  }

  @Test
  void file_byteOrderMarkIsNotPartOfTheFirstKey(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("keys.txt");
    Files.write(file, new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, 'a', '\n', 'b'});
    assertThat(KeySource.file(file).key(0, new StringBuilder()).toString()).isEqualTo("a");
  }

  @Test
  void file_notUtf8NamesTheLine(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("keys.txt");
    byte[] latin1 = ("a\n".repeat(10_000) + "caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1);
    Files.write(file, latin1);
    assertThatThrownBy(() -> KeySource.file(file))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("keys file " + file + " is not valid UTF-8: byte 0xe9 at line 10001");
  }

  @Test
  void file_aLineLongerThanTheBound_isRefusedWithFileAndLine(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("keys.txt");
    String longest = "x".repeat(KeySource.MAX_LINE_LENGTH);
    Files.writeString(file, "a\n" + longest + "\n" + longest + "y\nb\n");
    assertThatThrownBy(() -> KeySource.file(file))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "keys file "
                + file
                + " line 3 is longer than 65536 characters; put one key a line (is it a binary"
                + " file?)");
    Files.writeString(file, "a\n" + longest);
    assertThat(KeySource.file(file).size()).isEqualTo(2);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void file_devZero_oneEndlessLine_isRefusedAtItsFirstLine() {
    // it used to read until the heap gave out: "Required array length 2147483639 + 9 is too large"
    Path zero = Path.of("/dev/zero");
    assertThatThrownBy(() -> KeySource.file(zero))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "keys file /dev/zero line 1 is longer than 65536 characters; put one key a line (is it"
                + " a binary file?)");
  }

  @Test
  void forEachKey_oneLineMoreThanTheBound_isRefusedWithTheLine(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("keys.txt");
    List<String> keys = new java.util.ArrayList<>();
    Files.writeString(file, "a\r\n\r\nc\r\n"); // three lines, the bound: read
    KeySource.forEachKey(file, keys::add, 10, 3);
    assertThat(keys).containsExactly("a", "c");
    Files.writeString(file, "a\n\nc\nd");
    assertThatThrownBy(() -> KeySource.forEachKey(file, k -> {}, 10, 3))
        .isInstanceOf(IOException.class)
        .hasMessage("keys file " + file + " has more than 3 lines (line 4); sample fewer keys");
    assertThat(KeySource.MAX_LINES).isEqualTo(100_000_000L);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void forEachKey_aNamedPipe_isReadToItsEnd(@TempDir Path dir) throws Exception {
    Path fifo = dir.resolve("keys.fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor())
        .isZero();
    Thread writer =
        new Thread(
            () -> {
              try {
                Files.writeString(fifo, "a\nb\n");
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    writer.setDaemon(true);
    writer.start();
    List<String> keys = new java.util.ArrayList<>();
    KeySource.forEachKey(fifo, keys::add);
    writer.join(60_000);
    assertThat(keys).containsExactly("a", "b");
  }

  @Test
  void file_withoutKeysIsRejected(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("keys.txt");
    Files.writeString(file, "\n\n");
    assertThatThrownBy(() -> KeySource.file(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "keys file " + file + " has no keys; put one key a line (empty lines are skipped)");
  }

  @Test
  void of_keepsOrder() {
    KeySource keys = KeySource.of(List.of("x", "y"));
    assertThat(keys.key(0, new StringBuilder()).toString()).isEqualTo("x");
    assertThat(keys.key(1, new StringBuilder()).toString()).isEqualTo("y");
  }
}
