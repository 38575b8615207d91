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
 */
final class ServerUris {
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]+]");
  static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

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
              + Quotes.quote(parts.query())
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
