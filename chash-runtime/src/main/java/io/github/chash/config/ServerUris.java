package io.github.chash.config;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.Quotes;
import io.github.chash.internal.text.RedisUriParts;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The rules Redis and memcached node URIs share, checked once for both: well-formed placeholders,
 * no query, a valid host, a port in range, and the {@code host:port} a duplicate check compares.
 * One rule holds for the URI of every node type, a type of one's own included: {@linkplain
 * #passwordProblem(String) no plain-text password}, and {@linkplain #masked a password is never
 * printed}.
 */
final class ServerUris {
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]+]");
  static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

  /** The query parameters that carry a password, by name, compared ignoring case. */
  private static final List<String> PASSWORD_PARAMETERS = List.of("password", "passwd", "pwd");

  /** What a password becomes in printed text. */
  static final String MASK = "****";

  /**
   * What checking a URI found: message tails to print after the key's path, and the server it
   * points to (lower-case host, defaults filled in) for duplicate detection; null when unusable.
   */
  record Checked(List<String> problems, String server) {}

  private ServerUris() {}

  /**
   * {@return the URI cut in parts, or null when a placeholder is malformed or the scheme is none of
   * {@code schemes}; the problem is added then}
   *
   * @param schemes the schemes the node type takes, the usual one first
   */
  static RedisUriParts split(String uri, List<String> schemes, List<String> problems) {
    if (malformedPlaceholder(uri, problems)) {
      return null;
    }
    RedisUriParts parts = RedisUriParts.split(uri);
    if (!schemes.contains(parts.scheme())) {
      List<String> starts = schemes.stream().map(scheme -> scheme + "://").toList();
      String last = starts.get(starts.size() - 1);
      String expected =
          starts.size() == 1
              ? last
              : String.join(", ", starts.subList(0, starts.size() - 1)) + " or " + last;
      problems.add("must start with " + expected + ", was " + Quotes.quote(redact(uri)));
      return null;
    }
    return parts;
  }

  /**
   * The rule of a password in the URI of a type of one's own ({@link NodeType#builtIn} false): see
   * {@link #passwordProblem(RedisUriParts, boolean)}; a user name alone ({@code hz://admin@host})
   * is not a password there, as RFC 3986 reads it.
   *
   * @return null when the URI has no password or only {@code ${env:NAME}} ones, else what is wrong
   *     (never the password)
   */
  static String passwordProblem(String uri) {
    return passwordProblem(RedisUriParts.split(uri), false);
  }

  /**
   * The rule of a password in any node's URI: a password is an {@code ${env:NAME}} placeholder,
   * never the secret itself, since {@code chash.yaml} is committed, diffed and printed. A password
   * is the user info after its first {@code :} ({@code scheme://user:secret@host}), or a query
   * parameter named {@code password}, {@code passwd} or {@code pwd} ({@code ?password=secret}).
   *
   * @param bareUserInfoIsPassword whether user info without {@code :} ({@code redis://secret@host})
   *     is a password, as Lettuce and redis-cli read a Redis URI
   * @return null when the URI has no password or only {@code ${env:NAME}} ones, else what is wrong
   *     (never the password)
   */
  static String passwordProblem(RedisUriParts parts, boolean bareUserInfoIsPassword) {
    String userInfo = parts.userInfo();
    if (userInfo != null && (bareUserInfoIsPassword || hasColon(parts))) {
      String password = parts.password();
      if (!password.isEmpty() && !Placeholders.isPlaceholder(password)) {
        return "contains a plain-text password; use ${env:NAME}";
      }
    }
    String query = parts.query();
    if (query != null) {
      for (String parameter : parameters(query)) {
        int eq = parameter.indexOf('=');
        String value = eq < 0 ? "" : parameter.substring(eq + 1);
        if (isPasswordParameter(parameter, eq)
            && !value.isEmpty()
            && !Placeholders.isPlaceholder(value)) {
          return "contains a plain-text password (query parameter "
              + Quotes.quote(parameter.substring(0, eq))
              + "); use ${env:NAME}";
        }
      }
    }
    return null;
  }

  /**
   * {@return the URI with every password replaced by {@value #MASK}, safe to print: the user info's
   * password ({@code redis://:****@host}), user info without {@code :} (a password as Redis reads
   * it), and the query parameters {@link #passwordProblem(RedisUriParts, boolean)} names} {@code
   * ${env:NAME}} placeholders stay, since they are no secret. Null stays null.
   */
  static String masked(String uri) {
    if (uri == null) {
      return null;
    }
    RedisUriParts parts = RedisUriParts.split(uri);
    String out = uri;
    String userInfo = parts.userInfo();
    int schemeEnd = uri.indexOf("://");
    int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
    if (userInfo != null && uri.startsWith(userInfo, start)) {
      String password = maskedValue(parts.password());
      String replaced = hasColon(parts) ? parts.user() + ":" + password : password;
      out = uri.substring(0, start) + replaced + uri.substring(start + userInfo.length());
    }
    String query = parts.query();
    if (query != null && out.endsWith(query)) {
      out = out.substring(0, out.length() - query.length()) + maskedQuery(query);
    }
    return out;
  }

  /** {@return the query ({@code ?a=1&password=x}) with its password parameters' values masked} */
  static String maskedQuery(String query) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    for (String parameter : parameters(query)) {
      int at = query.indexOf(parameter, from);
      int eq = parameter.indexOf('=');
      out.append(query, from, at);
      out.append(
          isPasswordParameter(parameter, eq)
              ? parameter.substring(0, eq + 1) + maskedValue(parameter.substring(eq + 1))
              : parameter);
      from = at + parameter.length();
    }
    return out.append(query, from, query.length()).toString();
  }

  /** Whether the user info has a {@code :}, so that it is {@code user:password}. */
  private static boolean hasColon(RedisUriParts parts) {
    return parts.userInfo().equals(parts.user() + ":" + parts.password());
  }

  private static String maskedValue(String password) {
    return password.isEmpty() || Placeholders.isPlaceholder(password) ? password : MASK;
  }

  private static boolean isPasswordParameter(String parameter, int eq) {
    return eq > 0
        && PASSWORD_PARAMETERS.contains(parameter.substring(0, eq).toLowerCase(Locale.ROOT));
  }

  /** The {@code name=value} parameters of a query ({@code ?a=1&b=2}), without its fragment. */
  private static List<String> parameters(String query) {
    if (!query.startsWith("?")) {
      return List.of();
    }
    int hash = query.indexOf('#');
    String text = query.substring(1, hash < 0 ? query.length() : hash);
    return text.isEmpty() ? List.of() : List.of(text.split("[&;]", -1));
  }

  /** The URI with any user info replaced, safe to print. */
  static String redact(String uri) {
    int schemeEnd = uri.indexOf("://");
    int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
    int at = uri.lastIndexOf('@');
    return at < start ? uri : uri.substring(0, start) + "***" + uri.substring(at);
  }

  /** Whether the URI has a malformed placeholder; adds the problem when it has. */
  private static boolean malformedPlaceholder(String uri, List<String> problems) {
    if (Placeholders.malformedAt(uri) < 0) {
      return false;
    }
    problems.add("contains a malformed placeholder; use ${env:NAME}");
    return true;
  }

  /** Adds the problem of a query or fragment, which no node URI takes. */
  static void noQuery(RedisUriParts parts, List<String> problems) {
    if (parts.query() != null) {
      problems.add(
          "must not have a query or fragment, was "
              + Quotes.quote(maskedQuery(parts.query()))
              + "; timeouts belong under failover");
    }
  }

  /**
   * Checks the host and port of a URI whose scheme was checked, adding the problems.
   *
   * @return the server, {@code host:port} with a lower-case host and the default port filled in
   */
  static String hostAndPort(RedisUriParts parts, int defaultPort, List<String> problems) {
    String host = parts.host();
    if (host.startsWith("[")) {
      if (!IPV6.matcher(host).matches()) {
        problems.add("has an invalid host " + Quotes.quote(host));
      }
    } else if (host.isEmpty()) {
      problems.add("has no host");
    } else if (!Placeholders.isPlaceholder(host) && !HOST.matcher(host).matches()) {
      problems.add("has an invalid host " + Quotes.quote(host));
    }
    String port = parts.port();
    int portNumber = defaultPort;
    if (port != null && !Placeholders.isPlaceholder(port)) {
      portNumber = DIGITS.matcher(port).matches() ? Integer.parseInt(port) : -1;
      if (portNumber < 1 || portNumber > 65535) {
        problems.add("port must be between 1 and 65535, was " + Quotes.quote(port));
      }
    }
    return host.toLowerCase(Locale.ROOT)
        + ":"
        + (port != null && Placeholders.isPlaceholder(port) ? port : portNumber);
  }
}
