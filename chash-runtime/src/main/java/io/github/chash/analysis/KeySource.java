package io.github.chash.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
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
   * @throws UncheckedIOException naming the file (and the line, when it is not UTF-8 or breaks a
   *     bound of {@link #forEachKey(Path, Consumer)}) when it cannot be read
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
   * The longest line a keys file may have, in characters (UTF-16 units): far more than any key, and
   * small enough that a file with no line end at all ({@code /dev/zero}, a binary file) is refused
   * after reading this much of it rather than after filling the heap.
   */
  public static final int MAX_LINE_LENGTH = 65_536;

  /** The most lines a keys file may have, so that an endless stream of lines ends too. */
  public static final long MAX_LINES = 100_000_000L;

  /**
   * Reads the keys of a UTF-8 file, one a line, skipping empty lines and a leading byte order mark;
   * {@code \n}, {@code \r\n} and {@code \r} all end a line. Streams in bounded memory (one line of
   * at most {@value #MAX_LINE_LENGTH} characters); a file that is not a regular file but can be
   * read to its end, such as a named pipe or {@code /dev/stdin}, is read the same way, and one that
   * never ends is refused by the bounds.
   *
   * @param file the file of keys
   * @param action receives each key
   * @throws IOException with a message naming the file: missing, a directory, unreadable, not UTF-8
   *     (with the byte and line), a line longer than {@value #MAX_LINE_LENGTH} characters or more
   *     than {@value #MAX_LINES} lines (with the line)
   */
  public static void forEachKey(Path file, Consumer<String> action) throws IOException {
    forEachKey(file, action, MAX_LINE_LENGTH, MAX_LINES);
  }

  /** {@link #forEachKey(Path, Consumer)} with other bounds, so that tests can reach them. */
  static void forEachKey(Path file, Consumer<String> action, int maxLineLength, long maxLines)
      throws IOException {
    if (Files.isDirectory(file)) {
      throw new IOException("keys file " + file + " is a directory, not a file");
    }
    try (InputStream in = Files.newInputStream(file)) {
      new Lines(file, action, maxLineLength, maxLines).read(in);
    } catch (Refused e) {
      throw e;
    } catch (NoSuchFileException e) {
      throw new IOException("keys file " + file + " does not exist", e);
    } catch (IOException e) {
      throw new IOException("cannot read keys file " + file + ": " + e.getMessage(), e);
    }
  }

  /** What is wrong with a keys file's content; its message is final (file and line). */
  private static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /**
   * Cuts a byte stream into lines as it decodes it, counting them, so that a bad byte, an overlong
   * line or one line too many is reported with its line as soon as it is read.
   */
  private static final class Lines {
    private final Path file;
    private final Consumer<String> action;
    private final int maxLineLength;
    private final long maxLines;
    private final StringBuilder line = new StringBuilder();
    private long lineNumber = 1;
    private boolean afterCr;

    Lines(Path file, Consumer<String> action, int maxLineLength, long maxLines) {
      this.file = file;
      this.action = action;
      this.maxLineLength = maxLineLength;
      this.maxLines = maxLines;
    }

    void read(InputStream in) throws IOException {
      CharsetDecoder decoder =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
      ByteBuffer bytes = ByteBuffer.allocate(1 << 13);
      CharBuffer chars = CharBuffer.allocate(1 << 13);
      boolean end = false;
      while (!end) {
        int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
        end = n < 0;
        if (n > 0) {
          bytes.position(bytes.position() + n);
        }
        bytes.flip();
        CoderResult result;
        do {
          result = decoder.decode(bytes, chars, end);
          take(chars);
          if (result.isError()) {
            throw new Refused(
                String.format(
                    "keys file %s is not valid UTF-8: byte 0x%02x at line %d",
                    file, bytes.get(bytes.position()) & 0xff, lineNumber));
          }
        } while (result.isOverflow());
        bytes.compact();
      }
      decoder.flush(chars);
      take(chars);
      if (!line.isEmpty()) {
        endLine();
      }
    }

    /** Takes the decoded characters, leaving the buffer empty for more. */
    private void take(CharBuffer chars) throws Refused {
      chars.flip();
      char[] a = chars.array();
      int i = chars.position();
      int limit = chars.limit();
      while (i < limit) {
        if (afterCr && a[i] == '\n') {
          i++; // the second half of \r\n
        }
        afterCr = false;
        if (i == limit) {
          break;
        }
        if (lineNumber > maxLines) {
          throw new Refused(
              "keys file "
                  + file
                  + " has more than "
                  + maxLines
                  + " lines (line "
                  + lineNumber
                  + "); sample fewer keys");
        }
        int start = i;
        while (i < limit && a[i] != '\n' && a[i] != '\r') {
          i++;
        }
        if (line.length() + (i - start) > maxLineLength) {
          throw new Refused(
              "keys file "
                  + file
                  + " line "
                  + lineNumber
                  + " is longer than "
                  + maxLineLength
                  + " characters; put one key a line (is it a binary file?)");
        }
        line.append(a, start, i - start);
        if (i < limit) {
          afterCr = a[i] == '\r';
          i++;
          endLine();
        }
      }
      chars.clear();
    }

    private void endLine() {
      if (lineNumber == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
        line.deleteCharAt(0);
      }
      if (!line.isEmpty()) {
        action.accept(line.toString());
        line.setLength(0);
      }
      lineNumber++;
    }
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
