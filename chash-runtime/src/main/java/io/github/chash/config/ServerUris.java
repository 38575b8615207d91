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

  private ServerUris() {}

  /** Whether the URI has a malformed placeholder; adds the problem when it has. */
  static boolean malformedPlaceholder(String uri, List<String> problems) {
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
