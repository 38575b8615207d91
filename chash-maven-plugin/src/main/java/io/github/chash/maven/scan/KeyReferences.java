package io.github.chash.maven.scan;

import io.github.chash.internal.keys.KeyExpressionParser;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameters a key expression names, with their positions; parsed by the runtime's {@link
 * KeyExpressionParser}, the grammar the aspect compiles, so the plugin never loads the aspect.
 */
final class KeyReferences {
  /** A {@code #name} at a 1-based position. */
  record Reference(String name, int position) {}

  private KeyReferences() {}

  /**
   * Returns the parameter references of an expression.
   *
   * @throws IllegalArgumentException with {@code at position N: ...} on a syntax error
   */
  static List<Reference> of(String expression) {
    List<Reference> references = new ArrayList<>();
    KeyExpressionParser.parse(
        expression,
        new KeyExpressionParser.Listener() {
          @Override
          public void literal(String value, int start) {}

          @Override
          public void parameter(String name, int start) {
            references.add(new Reference(name, start + 1));
          }

          @Override
          public void property(String name, int start) {}

          @Override
          public IllegalArgumentException error(int start, String message) {
            return new IllegalArgumentException("at position " + (start + 1) + ": " + message);
          }
        });
    return references;
  }
}
