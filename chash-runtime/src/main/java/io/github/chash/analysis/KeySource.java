package io.github.chash.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
   * Keys {@code pattern} with {@value #PLACEHOLDER} replaced by 0, 1, ..., {@code count - 1}. A
   * pattern without the placeholder gets the index appended.
   *
   * @throws IllegalArgumentException if {@code count} is negative or the pattern has the
   *     placeholder more than once
   */
  public static KeySource pattern(String pattern, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("sample key count must not be negative; was " + count);
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

  /** The given keys, in order. */
  public static KeySource of(List<String> keys) {
    return new Listed(List.copyOf(keys), "<" + keys.size() + " keys>");
  }

  /**
   * The lines of a UTF-8 file, one key a line; empty lines are skipped.
   *
   * @throws UncheckedIOException naming the file when it cannot be read
   */
  public static KeySource file(Path file) {
    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
      List<String> keys = lines.filter(l -> !l.isEmpty()).toList();
      return new Listed(keys, file.getFileName().toString());
    } catch (IOException | UncheckedIOException e) {
      throw new UncheckedIOException(
          "cannot read keys file " + file,
          e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
    }
  }

  /** The number of keys. */
  public abstract int size();

  /**
   * Returns key {@code i}, possibly written into {@code scratch} (which it may clear). The result
   * is valid until the next call with the same buffer.
   */
  public abstract CharSequence key(int i, StringBuilder scratch);

  /** A short description for reports: the pattern, or the file name. */
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
