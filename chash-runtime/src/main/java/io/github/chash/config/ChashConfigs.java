package io.github.chash.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Reads and validates {@code chash.yaml}, the file the runtime and the Maven plugin share.
 *
 * <p>Every problem of a file is reported at once, each as {@code file:line:column: message} with
 * 1-based line and column of the offending value (of the enclosing mapping for a missing key). See
 * the {@linkplain io.github.chash.config package documentation} for the keys, their defaults and
 * the checks. Parsing uses SnakeYAML Engine's node API with limits on size ({@value
 * YamlComposer#MAX_CHARS} characters), nesting ({@value YamlComposer#MAX_DEPTH} levels) and aliases
 * ({@value YamlComposer#MAX_ALIASES}, standing for at most {@value YamlComposer#MAX_ALIASED_NODES}
 * values in all, merge keys included), and refuses an alias inside its own anchor before anything
 * is merged, so hostile input fails fast with a {@link ConfigException} and never with another
 * exception.
 *
 * <p>Stateless and thread-safe.
 */
public final class ChashConfigs {
  /** The class-path resource and default file name. */
  public static final String DEFAULT_NAME = "chash.yaml";

  private ChashConfigs() {}

  /**
   * Parses and validates a file, UTF-8 encoded. Messages name the file by {@code
   * file.getFileName()}, as users see it in their editor next to its line numbers.
   *
   * @param file the file to read
   * @return the validated configuration
   * @throws ConfigException listing every problem with file:line:column, also when the file cannot
   *     be read or is not UTF-8 (the I/O exception chained)
   */
  public static ChashConfig load(Path file) {
    Objects.requireNonNull(file, "file");
    return load(file, file.getFileName() == null ? file.toString() : file.getFileName().toString());
  }

  /**
   * Parses and validates a file, UTF-8 encoded, naming it {@code sourceName} in messages (for
   * example its path relative to the project, {@code src/main/resources/chash.yaml}).
   *
   * @param file the file to read
   * @param sourceName the name messages give the source, e.g. {@code chash.yaml}
   * @return the validated configuration
   * @throws ConfigException listing every problem with file:line:column, also when the file cannot
   *     be read or is not UTF-8 (the I/O exception chained)
   */
  public static ChashConfig load(Path file, String sourceName) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sourceName, "sourceName");
    String name = sourceName;
    byte[] bytes;
    if (Files.isDirectory(file)) {
      throw problem(name, "expected a file but found a directory: " + file, null);
    }
    try {
      long size = Files.size(file);
      if (size > 4L * YamlComposer.MAX_CHARS) {
        throw problem(name, YamlComposer.tooLarge(size + " bytes"), null);
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw problem(name, "file not found: " + file, e);
    } catch (IOException e) {
      throw problem(name, "cannot read file " + file + ": " + e, e);
    }
    return parse(decode(bytes, name), name);
  }

  /**
   * Parses and validates the {@value #DEFAULT_NAME} resource of the thread's context class loader
   * (or of this class's loader when there is none), as an application finds {@code
   * src/main/resources/chash.yaml}.
   *
   * @return the validated configuration
   * @throws ConfigException when the resource is missing or invalid, listing every problem
   */
  public static ChashConfig loadFromClasspath() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ChashConfigs.class.getClassLoader();
    }
    try (InputStream in = loader.getResourceAsStream(DEFAULT_NAME)) {
      if (in == null) {
        throw problem(
            DEFAULT_NAME,
            "no " + DEFAULT_NAME + " on the class path (put it in src/main/resources)",
            null);
      }
      return load(in, DEFAULT_NAME);
    } catch (IOException e) {
      throw problem(DEFAULT_NAME, "cannot read " + DEFAULT_NAME + " from the class path: " + e, e);
    }
  }

  /**
   * Parses and validates a stream (a class-path resource, a Spring {@code Resource}), UTF-8
   * encoded, under the same size cap and strict decoding as a file; {@code sourceName} names it in
   * messages. Does not close the stream.
   *
   * @param in the stream to read; it is not closed
   * @param sourceName the name messages give the source, e.g. {@code chash.yaml}
   * @return the validated configuration
   * @throws ConfigException listing every problem with file:line:column, also when the stream
   *     cannot be read, is too large or is not UTF-8
   */
  public static ChashConfig load(InputStream in, String sourceName) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(sourceName, "sourceName");
    byte[] bytes;
    try {
      bytes = in.readNBytes(4 * YamlComposer.MAX_CHARS + 1);
    } catch (IOException e) {
      throw problem(sourceName, "cannot read " + sourceName + ": " + e, e);
    }
    if (bytes.length > 4 * YamlComposer.MAX_CHARS) {
      throw problem(
          sourceName, YamlComposer.tooLarge("more than " + bytes.length + " bytes"), null);
    }
    return parse(decode(bytes, sourceName), sourceName);
  }

  /**
   * Parses and validates YAML text; {@code sourceName} is the file name used in messages.
   *
   * @param yaml the YAML text
   * @param sourceName the name messages give the source, e.g. {@code chash.yaml}
   * @return the validated configuration
   * @throws ConfigException listing every problem with file:line:column
   */
  public static ChashConfig parse(String yaml, String sourceName) {
    Objects.requireNonNull(yaml, "yaml");
    Objects.requireNonNull(sourceName, "sourceName");
    return ConfigReader.read(yaml, sourceName);
  }

  /** Strict UTF-8: a malformed byte is a located problem, not a replacement character. */
  static String decode(byte[] bytes, String name) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      out.flip();
      int line = 1;
      int column = 1;
      for (int i = 0; i < out.length(); i++) {
        if (out.charAt(i) == '\n') {
          line++;
          column = 1;
        } else {
          column++;
        }
      }
      throw new ConfigException(
          List.of(
              new ConfigProblem(
                  name,
                  line,
                  column,
                  String.format(
                      "file is not valid UTF-8: byte 0x%02x at offset %d",
                      bytes[in.position()] & 0xff, in.position()))));
    }
    decoder.flush(out);
    out.flip();
    return out.toString();
  }

  private static ConfigException problem(String name, String message, Throwable cause) {
    return new ConfigException(List.of(new ConfigProblem(name, 1, 1, message)), cause);
  }
}
