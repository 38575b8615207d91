package io.github.chash.internal.text;

import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves {@code ${env:NAME}} placeholders, the only way {@code chash.yaml} may carry a secret
 * such as a Redis password: {@code redis://default:${env:REDIS_PASSWORD}@cache-1:6380}.
 *
 * <p>{@code NAME} consists of ASCII letters, digits and {@code _} and does not start with a digit.
 * Error messages name the variable but never contain the text around it or a resolved value, so a
 * secret cannot leak into a log through them. Stateless and thread-safe.
 */
public final class Placeholders {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  private Placeholders() {}

  /**
   * Replaces every {@code ${env:NAME}} in {@code text} with the value of the environment variable
   * {@code NAME}.
   *
   * @param text the text, may be null
   * @return the text with every placeholder replaced
   * @throws IllegalArgumentException naming the variable when it is not set, or when the text
   *     contains a <code>${</code> that is not a well-formed placeholder
   */
  public static String resolve(String text) {
    return resolve(text, System::getenv);
  }

  /**
   * Replaces every {@code ${env:NAME}} in {@code text} with {@code env.apply(NAME)}; a null result
   * means "not set". Use this form in tests and to read from somewhere other than the process
   * environment.
   *
   * @param text the text, may be null
   * @param env gives a variable's value, or null when it is not set
   * @return the text with every placeholder replaced
   * @throws IllegalArgumentException naming the variable when {@code env} returns null for it, or
   *     when the text contains a <code>${</code> that is not a well-formed placeholder
   */
  public static String resolve(String text, Function<String, String> env) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(env, "env");
    int malformed = malformedAt(text);
    if (malformed >= 0) {
      throw new IllegalArgumentException(
          "malformed placeholder at index " + malformed + "; use ${env:NAME}");
    }
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = env.apply(name);
      if (value == null) {
        throw new IllegalArgumentException(
            "environment variable " + name + " is not set (referenced as ${env:" + name + "})");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * {@return whether the whole text is exactly one {@code ${env:NAME}} placeholder}
   *
   * @param text the text, may be null
   */
  public static boolean isPlaceholder(String text) {
    return text != null && PLACEHOLDER.matcher(text).matches();
  }

  /**
   * {@return whether the text contains at least one well-formed placeholder}
   *
   * @param text the text, may be null
   */
  public static boolean containsPlaceholder(String text) {
    return text != null && PLACEHOLDER.matcher(text).find();
  }

  /**
   * Finds the first <code>${</code> that does not start a well-formed placeholder.
   *
   * @param text the text to look through
   * @return its index, or -1 when every one is well-formed
   */
  public static int malformedAt(String text) {
    int from = 0;
    while (true) {
      int at = text.indexOf("${", from);
      if (at < 0) {
        return -1;
      }
      Matcher m = PLACEHOLDER.matcher(text);
      if (!m.find(at) || m.start() != at) {
        return at;
      }
      from = m.end();
    }
  }
}
