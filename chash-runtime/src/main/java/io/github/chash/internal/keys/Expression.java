package io.github.chash.internal.keys;

import java.math.BigDecimal;
import java.util.List;

/**
 * Internal: a parsed key expression or condition, as {@link ExpressionParser} reads it. Nodes are
 * immutable; {@link #start()} is the 0-based index of the node's first character (of the operator,
 * for a comparison), the position messages report.
 */
public sealed interface Expression {

  /** {@return index of this node's first character (a comparison's operator) in the text} */
  int start();

  /**
   * A quoted literal.
   *
   * @param value the text without its quotes, {@code ''} already turned into {@code '}
   */
  record Text(String value, int start) implements Expression {}

  /** A number literal: digits with an optional sign and fraction, such as {@code -1.5}. */
  record Numeral(BigDecimal value, int start) implements Expression {}

  /** {@code true} or {@code false}. */
  record Bool(boolean value, int start) implements Expression {}

  /** {@code null}. */
  record Null(int start) implements Expression {}

  /**
   * A {@code #name} with its property path: {@code #user.address.city} has the name {@code user}
   * and the properties {@code address}, {@code city}.
   */
  record Reference(String name, List<Property> properties, int start) implements Expression {
    /**
     * Copies the path.
     *
     * @param name the parameter name, or {@code result} or {@code root}
     * @param properties the property names after it, in order
     * @param start index of the node's first character in the text
     */
    public Reference {
      properties = List.copyOf(properties);
    }

    /**
     * {@return {@code #name.a.b}, as written without spaces}
     *
     * @param propertyCount how many of the properties to include
     */
    public String path(int propertyCount) {
      StringBuilder path = new StringBuilder("#").append(name);
      for (int i = 0; i < propertyCount; i++) {
        path.append('.').append(properties.get(i).name());
      }
      return path.toString();
    }
  }

  /**
   * One {@code .name} of a reference's path.
   *
   * @param start index of the name's first character
   */
  record Property(String name, int start) {}

  /** Key parts joined by {@code +}, in order; at least two. */
  record Concat(List<Expression> parts, int start) implements Expression {
    /**
     * Copies the parts.
     *
     * @param parts the concatenated expressions, in order
     * @param start index of the node's first character in the text
     */
    public Concat {
      parts = List.copyOf(parts);
    }
  }

  /** {@code left op right}. */
  record Comparison(Operator operator, Expression left, Expression right, int start)
      implements Expression {}

  /** {@code left and right}. */
  record And(Expression left, Expression right, int start) implements Expression {}

  /** {@code left or right}. */
  record Or(Expression left, Expression right, int start) implements Expression {}

  /** {@code not operand}. */
  record Not(Expression operand, int start) implements Expression {}

  /** The comparison operators. */
  enum Operator {
    /** {@code ==} */
    EQ("=="),
    /** {@code !=} */
    NE("!="),
    /** {@code <} */
    LT("<"),
    /** {@code <=} */
    LE("<="),
    /** {@code >} */
    GT(">"),
    /** {@code >=} */
    GE(">=");

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }

    /** {@return the operator as written} */
    public String symbol() {
      return symbol;
    }

    /** {@return whether it orders its operands ({@code < <= > >=}) rather than testing equality} */
    public boolean orders() {
      return this != EQ && this != NE;
    }
  }
}
