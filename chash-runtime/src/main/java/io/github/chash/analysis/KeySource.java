package io.github.chash.analysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The keys a distribution is sampled over: synthetic keys from a pattern, or real keys from a list
 * or file. Immutable and thread-safe; {@link #key(int, StringBuilder)} writes into the caller's
 * scratch buffer so that sampling a million keys allocates no strings.
 */
public abstract sealed class KeySource permits KeySource.Pattern, KeySource.Listed {
  /** The placeholder replaced by the key's index in a pattern. */
  public static final String PLACEHOLDER = "{n}";

  private KeySource() {}

  /**
   * {@return keys {@code pattern} with {@value #PLACEHOLDER} replaced by 0, 1, ..., {@code count -
   * 1}} A pattern without the placeholder gets the index appended.
   *
   * @param pattern the pattern
   * @param count how many keys, at least 1
   * @throws IllegalArgumentException if {@code count} is negative or the pattern has the
   *     placeholder more than once
   */
  public static KeySource pattern(String pattern, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("sample key count must not be negative, was " + count);
    }
    int at = pattern.indexOf(PLACEHOLDER);
    if (at >= 0 && pattern.indexOf(PLACEHOLDER, at + 1) >= 0) {
      throw new IllegalArgumentException(
          "key pattern must contain " + PLACEHOLDER + " at most once; was \"" + pattern + "\"");
    }
    String prefix = at < 0 ? pattern : pattern.substring(0, at);
    String suffix = at < 0 ? "" : pattern.substring(at + PLACEHOLDER.length());
    return new Pattern(pattern, prefix, suffix, count);
  }

  /**
   * {@return the given keys, in order}
   *
   * @param keys the keys
   */
  public static KeySource of(List<String> keys) {
    return new Listed(List.copyOf(keys), "<" + keys.size() + " keys>");
  }

  /**
   * {@return the lines of a UTF-8 file, one key a line; empty lines are skipped, as is a leading
   * byte order mark (editors on Windows write one; it would otherwise become part of the first
   * key)}
   *
   * @param file the file of keys
   * @throws UncheckedIOException naming the file (and the line, when it is not UTF-8) when it
   *     cannot be read
   * @throws IllegalArgumentException naming the file when it holds no key, so a check never passes
   *     over an empty sample by mistake
   */
  public static KeySource file(Path file) {
    List<String> keys = new ArrayList<>();
    try {
      forEachKey(file, keys::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(
          "keys file " + file + " has no keys; put one key a line (empty lines are skipped)");
    }
    return new Listed(List.copyOf(keys), file.getFileName().toString());
  }

  /**
   * Reads the keys of a UTF-8 file, one a line, skipping empty lines and a leading byte order mark;
   * {@code \n}, {@code \r\n} and {@code \r} all end a line. Streams: memory stays constant.
   *
   * @param file the file of keys
   * @param action receives each key
   * @throws IOException with a message naming the file: missing, a directory, unreadable, or not
   *     UTF-8 (with the line)
   */
  public static void forEachKey(Path file, Consumer<String> action) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IOException("keys file " + file + " is a directory, not a file");
    }
    boolean first = true;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (first && line.startsWith("\uFEFF")) {
          line = line.substring(1);
        }
        first = false;
        if (!line.isEmpty()) {
          action.accept(line);
        }
      }
    } catch (NoSuchFileException e) {
      throw new IOException("keys file " + file + " does not exist", e);
    } catch (CharacterCodingException e) {
      // not chained: its message ("Input length = 1") only adds noise to Maven's output
      throw new IOException("keys file " + file + " is not valid UTF-8: " + badUtf8(file));
    } catch (IOException e) {
      throw new IOException("cannot read keys file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Where the first byte that is not UTF-8 is: its line and value. The reader's own position lags
   * its read-ahead, so this decodes the bytes again.
   */
  private static String badUtf8(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    StandardCharsets.UTF_8.newDecoder().decode(in, CharBuffer.allocate(bytes.length), true);
    long line = 1;
    for (int i = 0; i < in.position(); i++) {
      if (bytes[i] == '\n') {
        line++;
      }
    }
    int at = Math.min(in.position(), bytes.length - 1);
    return String.format("byte 0x%02x at line %d", bytes[at] & 0xff, line);
  }

  /** {@return the number of keys} */
  public abstract int size();

  /**
   * {@return key {@code i}, possibly written into {@code scratch} (which it may clear)} The result
   * is valid until the next call with the same buffer.
   *
   * @param i the key's index, from 0 to {@code size() - 1}
   * @param scratch a builder the source may write the key into
   */
  public abstract CharSequence key(int i, StringBuilder scratch);

  /** {@return a short description for reports: the pattern, or the file name} */
  public abstract String description();

  static final class Pattern extends KeySource {
    private final String pattern;
    private final String prefix;
    private final String suffix;
    private final int count;

    Pattern(String pattern, String prefix, String suffix, int count) {
      this.pattern = pattern;
      this.prefix = prefix;
      this.suffix = suffix;
      this.count = count;
    }

    @Override
    public int size() {
      return count;
    }

    @Override
    public CharSequence key(int i, StringBuilder scratch) {
      scratch.setLength(0);
      return scratch.append(prefix).append(i).append(suffix);
    }

    @Override
    public String description() {
      return pattern;
    }
  }

  static final class Listed extends KeySource {
    private final List<String> keys;
    private final String description;

    Listed(List<String> keys, String description) {
      this.keys = keys;
      this.description = description;
    }

    @Override
    public int size() {
      return keys.size();
    }

    @Override
    public CharSequence key(int i, StringBuilder scratch) {
      return keys.get(i);
    }

    @Override
    public String description() {
      return description;
    }
  }
}
