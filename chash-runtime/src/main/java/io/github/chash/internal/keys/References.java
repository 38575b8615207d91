package io.github.chash.internal.keys;

import io.github.chash.internal.keys.Expression.And;
import io.github.chash.internal.keys.Expression.Comparison;
import io.github.chash.internal.keys.Expression.Concat;
import io.github.chash.internal.keys.Expression.Not;
import io.github.chash.internal.keys.Expression.Or;
import io.github.chash.internal.keys.Expression.Property;
import io.github.chash.internal.keys.Expression.Reference;
import java.util.ArrayList;
import java.util.List;

/**
 * Internal: what a {@code #reference} names in a method, the one place the meaning of names is
 * decided (the aspect compiles with it, the plugin checks with it, so both accept and reject the
 * same references with the same messages).
 *
 * <ul>
 *   <li>{@code #result}: the method's result (where the attribute is evaluated after the method);
 *   <li>{@code #root.methodName}: the method's name; {@code #root.args}: its argument array;
 *   <li>{@code #name}: a parameter by name, then {@code #p0}/{@code #a0}: a parameter by index.
 * </ul>
 *
 * <p>{@code result} and {@code root} are reserved: a parameter with one of these names is reached
 * as {@code #p0}. Stateless and thread-safe.
 */
public final class References {
  private References() {}

  /** What a reference reads. */
  public enum Kind {
    /** A parameter: {@link Target#parameter()} is its index. */
    PARAMETER,
    /** The method's result (the cached value: an Optional's content, a future's value). */
    RESULT,
    /** {@code #root.methodName}. */
    METHOD_NAME,
    /** {@code #root.args}. */
    ARGS
  }

  /**
   * A resolved reference.
   *
   * @param kind what it reads
   * @param parameter the parameter index, for {@link Kind#PARAMETER}; else -1
   * @param properties the property path read from it (empty for the {@code #root} members)
   */
  public record Target(Kind kind, int parameter, List<Property> properties) {}

  /**
   * Resolves a reference.
   *
   * @param ref the reference
   * @param method the method the expression belongs to
   * @param resultUnavailable why {@code #result} cannot be used in this attribute, or {@code null}
   *     where it can
   * @return what the reference names
   * @throws ExpressionException if the method has nothing of that name, at the reference's position
   */
  public static Target resolve(Reference ref, MethodShape method, String resultUnavailable) {
    String name = ref.name();
    if (name.equals("result")) {
      if (resultUnavailable != null) {
        throw new ExpressionException(ref.start(), resultUnavailable);
      }
      if (method.returnsVoid()) {
        throw new ExpressionException(
            ref.start(), "the method returns nothing, so #result would always be null");
      }
      return new Target(Kind.RESULT, -1, ref.properties());
    }
    if (name.equals("root")) {
      return root(ref);
    }
    return new Target(Kind.PARAMETER, parameterIndex(ref, method), ref.properties());
  }

  /**
   * {@return every reference of an expression, in text order}
   *
   * @param expression the parsed expression
   */
  public static List<Reference> all(Expression expression) {
    List<Reference> found = new ArrayList<>();
    collect(expression, found);
    return found;
  }

  private static void collect(Expression e, List<Reference> found) {
    if (e instanceof Reference r) {
      found.add(r);
    } else if (e instanceof Concat c) {
      c.parts().forEach(part -> collect(part, found));
    } else if (e instanceof Comparison c) {
      collect(c.left(), found);
      collect(c.right(), found);
    } else if (e instanceof And a) {
      collect(a.left(), found);
      collect(a.right(), found);
    } else if (e instanceof Or o) {
      collect(o.left(), found);
      collect(o.right(), found);
    } else if (e instanceof Not n) {
      collect(n.operand(), found);
    }
  }

  private static Target root(Reference ref) {
    List<Property> path = ref.properties();
    if (path.isEmpty()) {
      throw new ExpressionException(
          ref.start(), "#root needs a property: #root.methodName or #root.args");
    }
    Property member = path.get(0);
    Kind kind =
        switch (member.name()) {
          case "methodName" -> Kind.METHOD_NAME;
          case "args" -> Kind.ARGS;
          default ->
              throw new ExpressionException(
                  member.start(),
                  "#root has no property " + member.name() + "; it has methodName and args");
        };
    if (path.size() > 1) {
      throw new ExpressionException(
          path.get(1).start(), "#root." + member.name() + " has no properties");
    }
    return new Target(kind, -1, List.of());
  }

  private static int parameterIndex(Reference ref, MethodShape method) {
    String name = ref.name();
    int count = method.parameterCount();
    List<String> names = method.parameterNames();
    if (names != null) {
      int byName = names.indexOf(name);
      if (byName >= 0) {
        return byName;
      }
    }
    int index = indexForm(name);
    if (index >= 0) {
      if (index < count) {
        return index;
      }
      throw new ExpressionException(
          ref.start(),
          "no parameter #"
              + name
              + "; the method has "
              + count
              + " parameter"
              + (count == 1 ? "" : "s")
              + indexRange(count, " (", ")"));
    }
    if (count == 0) {
      throw new ExpressionException(
          ref.start(), "no parameter named " + name + "; the method has no parameters");
    }
    if (names == null) {
      throw new ExpressionException(
          ref.start(),
          "no parameter named "
              + name
              + "; parameter names are not in the class file: compile with -parameters"
              + " (maven-compiler-plugin <parameters>true</parameters>; Spring proxies need it,"
              + " AspectJ weaving also reads javac's debug information) or use"
              + indexRange(count, " ", ""));
    }
    throw new ExpressionException(
        ref.start(),
        "no parameter named " + name + "; parameters are: " + String.join(", ", names));
  }

  /** {@code #p0} or {@code #p0 to #p2} between the affixes; empty for no parameters. */
  private static String indexRange(int count, String before, String after) {
    if (count == 0) {
      return "";
    }
    return before + (count == 1 ? "#p0" : "#p0 to #p" + (count - 1)) + after;
  }

  /** The index of {@code p3}/{@code a3}, or -1 for any other name. */
  private static int indexForm(String name) {
    if (name.length() < 2
        || name.length() > 6
        || (name.charAt(0) != 'p' && name.charAt(0) != 'a')) {
      return -1;
    }
    for (int i = 1; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(name.substring(1));
  }
}
