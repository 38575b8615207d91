package io.github.chash.internal.keys;

import io.github.chash.internal.keys.Expression.And;
import io.github.chash.internal.keys.Expression.Bool;
import io.github.chash.internal.keys.Expression.Comparison;
import io.github.chash.internal.keys.Expression.Concat;
import io.github.chash.internal.keys.Expression.Not;
import io.github.chash.internal.keys.Expression.Null;
import io.github.chash.internal.keys.Expression.Numeral;
import io.github.chash.internal.keys.Expression.Operator;
import io.github.chash.internal.keys.Expression.Or;
import io.github.chash.internal.keys.Expression.Property;
import io.github.chash.internal.keys.Expression.Reference;
import io.github.chash.internal.keys.Expression.Text;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Internal: reads key expressions and conditions into {@link Expression} trees. Not part of the
 * API; it may change in any release.
 *
 * <p>Grammar (white space allowed between tokens):
 *
 * <pre>
 * key        = value { "+" value }
 * value      = reference | text
 * condition  = or
 * or         = and { "or" and }
 * and        = not { "and" not }
 * not        = "not" not | comparison
 * comparison = operand [ ( "==" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" ) operand ]
 * operand    = reference | text | number | "true" | "false" | "null" | "(" or ")"
 * reference  = "#" identifier { "." identifier }
 * text       = "'" { any character but "'" | "''" } "'"
 * number     = [ "-" ] digits [ "." digits ]
 * </pre>
 *
 * <p>Identifiers are Java identifiers; the keywords are lower case. Operands of {@code and}, {@code
 * or}, {@code not} and a whole condition must be truth values: a comparison, a logical operation,
 * {@code true}/{@code false} or a reference (whose type the caller checks). Two literals of
 * different kinds are never compared. There are no method calls, arithmetic or assignments.
 *
 * <p>Linear in the length of the text. Thread-safe: each parse has its own state.
 */
public final class ExpressionParser {
  private static final String VALUE =
      "a value ('#name', a quoted literal, a number, true, false," + " null or '(')";

  private final String text;
  private int pos;

  private ExpressionParser(String text) {
    this.text = text;
  }

  /**
   * Parses a key expression: references and quoted literals joined by {@code +}.
   *
   * @param text the expression, not empty (an empty key is the caller's special case)
   * @return a {@link Reference}, a {@link Text} or a {@link Concat} of them
   * @throws ExpressionException on a syntax error
   */
  public static Expression key(String text) {
    return new ExpressionParser(text).key();
  }

  /**
   * Parses a condition.
   *
   * @param text the condition, not empty
   * @return the tree; its top is a truth value as described above
   * @throws ExpressionException on a syntax error or a value where a truth value belongs
   */
  public static Expression condition(String text) {
    return new ExpressionParser(text).wholeCondition();
  }

  private Expression key() {
    skipSpaces();
    List<Expression> parts = new ArrayList<>();
    parts.add(keyValue());
    skipSpaces();
    while (pos < text.length()) {
      if (text.charAt(pos) != '+') {
        throw new ExpressionException(
            pos, "expected '+' or the end, found '" + text.charAt(pos) + "'");
      }
      pos++;
      skipSpaces();
      parts.add(keyValue());
      skipSpaces();
    }
    return parts.size() == 1 ? parts.get(0) : new Concat(parts, parts.get(0).start());
  }

  private Expression keyValue() {
    if (pos >= text.length()) {
      throw new ExpressionException(
          pos, "expected '#parameter' or a quoted literal, found the end");
    }
    char c = text.charAt(pos);
    if (c == '\'') {
      return text();
    }
    if (c == '#') {
      return reference();
    }
    throw new ExpressionException(
        pos, "expected '#parameter' or a quoted literal, found '" + c + "'");
  }

  private Expression wholeCondition() {
    skipSpaces();
    Expression condition = or();
    skipSpaces();
    if (pos < text.length()) {
      throw new ExpressionException(pos, "expected 'and', 'or' or the end, found " + found());
    }
    return truthValue(condition);
  }

  private Expression or() {
    Expression left = and();
    while (keyword("or")) {
      left = new Or(truthValue(left), truthValue(and()), left.start());
    }
    return left;
  }

  private Expression and() {
    Expression left = not();
    while (keyword("and")) {
      left = new And(truthValue(left), truthValue(not()), left.start());
    }
    return left;
  }

  private Expression not() {
    skipSpaces();
    int start = pos;
    if (keyword("not")) {
      return new Not(truthValue(not()), start);
    }
    return comparison();
  }

  private Expression comparison() {
    Expression left = operand();
    skipSpaces();
    int at = pos;
    Operator operator = operator();
    if (operator == null) {
      return left;
    }
    skipSpaces();
    Expression right = operand();
    checkLiterals(operator, left, right);
    return new Comparison(operator, left, right, at);
  }

  private Expression operand() {
    skipSpaces();
    if (pos >= text.length()) {
      throw new ExpressionException(pos, "expected " + VALUE + ", found the end");
    }
    char c = text.charAt(pos);
    int start = pos;
    if (c == '#') {
      return reference();
    }
    if (c == '\'') {
      return text();
    }
    if (isDigit(c) || (c == '-' && pos + 1 < text.length() && isDigit(text.charAt(pos + 1)))) {
      return number();
    }
    if (c == '(') {
      pos++;
      Expression inner = or();
      skipSpaces();
      if (pos >= text.length() || text.charAt(pos) != ')') {
        throw new ExpressionException(
            pos, "expected ')' to close the '(' at position " + (start + 1) + ", found " + found());
      }
      pos++;
      return inner;
    }
    if (keyword("true")) {
      return new Bool(true, start);
    }
    if (keyword("false")) {
      return new Bool(false, start);
    }
    if (keyword("null")) {
      return new Null(start);
    }
    if (c == '!' && !text.startsWith("!=", pos)) {
      throw new ExpressionException(pos, "expected " + VALUE + ", found '!'; write not");
    }
    if (Character.isJavaIdentifierStart(c)) {
      String word = identifierAt(pos);
      throw new ExpressionException(
          pos, "expected " + VALUE + ", found '" + word + "'; write #" + word + " for a parameter");
    }
    throw new ExpressionException(pos, "expected " + VALUE + ", found " + found());
  }

  /** Reads a comparison operator, or returns null (leaving the position) if none is next. */
  private Operator operator() {
    for (Operator op : new Operator[] {Operator.EQ, Operator.NE, Operator.LE, Operator.GE}) {
      if (text.startsWith(op.symbol(), pos)) {
        pos += 2;
        return op;
      }
    }
    if (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '<' || c == '>') {
        pos++;
        return c == '<' ? Operator.LT : Operator.GT;
      }
      if (c == '=') {
        throw new ExpressionException(pos, "found '='; write == to compare");
      }
      if (text.startsWith("&&", pos)) {
        throw new ExpressionException(pos, "found '&&'; write and");
      }
      if (text.startsWith("||", pos)) {
        throw new ExpressionException(pos, "found '||'; write or");
      }
    }
    return null;
  }

  private Expression reference() {
    int start = pos;
    pos++;
    String name = identifier("a parameter name after '#'");
    List<Property> properties = new ArrayList<>();
    while (pos < text.length() && text.charAt(pos) == '.') {
      pos++;
      int propertyStart = pos;
      properties.add(new Property(identifier("a property name after '.'"), propertyStart));
    }
    return new Reference(name, properties, start);
  }

  private Expression text() {
    int start = pos;
    pos++;
    StringBuilder value = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw new ExpressionException(start, "unterminated literal; close it with '");
      }
      char c = text.charAt(pos++);
      if (c == '\'') {
        if (pos < text.length() && text.charAt(pos) == '\'') {
          value.append('\'');
          pos++;
        } else {
          break;
        }
      } else {
        value.append(c);
      }
    }
    return new Text(value.toString(), start);
  }

  private Expression number() {
    int start = pos;
    if (text.charAt(pos) == '-') {
      pos++;
    }
    digits();
    if (pos + 1 < text.length() && text.charAt(pos) == '.' && isDigit(text.charAt(pos + 1))) {
      pos++;
      digits();
    }
    return new Numeral(new BigDecimal(text.substring(start, pos)), start);
  }

  private void digits() {
    while (pos < text.length() && isDigit(text.charAt(pos))) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Consumes a keyword (after spaces) if it is next and not the start of a longer word. */
  private boolean keyword(String word) {
    skipSpaces();
    int end = pos + word.length();
    if (text.startsWith(word, pos)
        && (end == text.length() || !Character.isJavaIdentifierPart(text.charAt(end)))) {
      pos = end;
      return true;
    }
    return false;
  }

  private String identifier(String what) {
    if (pos >= text.length() || !Character.isJavaIdentifierStart(text.charAt(pos))) {
      throw new ExpressionException(pos, "expected " + what + ", found " + found());
    }
    String name = identifierAt(pos);
    pos += name.length();
    return name;
  }

  private String identifierAt(int start) {
    int end = start + 1;
    while (end < text.length() && Character.isJavaIdentifierPart(text.charAt(end))) {
      end++;
    }
    return text.substring(start, end);
  }

  /** What is at the position, for messages: {@code the end} or the quoted character. */
  private String found() {
    return pos >= text.length() ? "the end" : "'" + text.charAt(pos) + "'";
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  /** A condition, or an operand of and/or/not: literals other than true/false are no answer. */
  private static Expression truthValue(Expression e) {
    String kind = literalKind(e);
    if (kind != null && !(e instanceof Bool)) {
      throw new ExpressionException(
          e.start(),
          "expected a condition (a comparison, and, or, not, true, false or a #reference),"
              + " found "
              + kind);
    }
    return e;
  }

  /** Comparisons whose answer the literals alone decide are mistakes. */
  private static void checkLiterals(Operator operator, Expression left, Expression right) {
    if (operator.orders()) {
      for (Expression side : List.of(left, right)) {
        if (side instanceof Null || side instanceof Bool) {
          throw new ExpressionException(
              side.start(),
              (side instanceof Bool b ? String.valueOf(b.value()) : "null")
                  + " cannot be ordered; compare it with == or !=");
        }
      }
    }
    String l = literalKind(left);
    String r = literalKind(right);
    if (l != null
        && r != null
        && !l.equals(r)
        && !(left instanceof Null)
        && !(right instanceof Null)) {
      throw new ExpressionException(
          right.start(), (operator.orders() ? "cannot order " : "never equal: ") + l + " and " + r);
    }
  }

  /** What kind of literal a node is, for messages ({@code a number}), or null for no literal. */
  private static String literalKind(Expression e) {
    if (e instanceof Text) {
      return "a quoted literal";
    }
    if (e instanceof Numeral) {
      return "a number";
    }
    if (e instanceof Null) {
      return "null";
    }
    if (e instanceof Bool) {
      return "a boolean";
    }
    return null;
  }
}
