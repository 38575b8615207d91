package io.github.chash.config;

/**
 * One problem found in a configuration: where (file, 1-based line and column) and what.
 *
 * @param file the file name as the user knows it, e.g. {@code chash.yaml}
 * @param line 1-based line
 * @param column 1-based column
 * @param message lower-case message naming the key and the bad value
 */
public record ConfigProblem(String file, int line, int column, String message) {

  /** {@code file:line:column: message}, the form every tool prints. */
  @Override
  public String toString() {
    return file + ":" + line + ":" + column + ": " + message;
  }
}
