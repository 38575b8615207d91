package io.github.chash.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.Node;

/** Collects the problems of one file so that all of them are reported at once. Not thread-safe. */
final class Problems {
  private final String file;
  private final List<ConfigProblem> problems = new ArrayList<>();

  Problems(String file) {
    this.file = file;
  }

  String file() {
    return file;
  }

  /** A problem at the start of the node (the offending value). */
  void at(Node node, String message) {
    at(node.getStartMark(), message);
  }

  /** A problem at a SnakeYAML mark (0-based), or at 1:1 when there is none. */
  void at(Optional<Mark> mark, String message) {
    if (mark.isPresent()) {
      at(mark.get().getLine() + 1, mark.get().getColumn() + 1, message);
    } else {
      at(1, 1, message);
    }
  }

  /** A problem at a 1-based line and column. */
  void at(int line, int column, String message) {
    problems.add(new ConfigProblem(file, line, column, message));
  }

  /** How many problems were found so far; a reader compares it before and after a part. */
  int count() {
    return problems.size();
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  /** Throws a {@link ConfigException} with every problem in file order, if there is any. */
  void throwIfAny() {
    if (!problems.isEmpty()) {
      throw exception(null);
    }
  }

  ConfigException exception(Throwable cause) {
    List<ConfigProblem> sorted = new ArrayList<>(problems);
    sorted.sort(
        Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column));
    return new ConfigException(sorted, cause);
  }
}
