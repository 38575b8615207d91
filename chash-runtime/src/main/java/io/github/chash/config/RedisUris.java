package io.github.chash.config;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.RedisUriParts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Checks a Redis URI as written in {@code chash.yaml}: {@code redis://} or {@code rediss://}, an
 * optional {@code [user:]password@} whose password is a {@code ${env:NAME}} placeholder, a host, an
 * optional port (default 6379) and an optional database ({@code /0}). Placeholders may stand for
 * any part. Messages never repeat a password. The URI is cut by {@link RedisUriParts}, the reading
 * the Redis nodes share.
 */
final class RedisUris {
  static final int DEFAULT_PORT = 6379;
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]+]");
  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

  /**
   * The outcome: message tails to print after the key's path, and the server the URI points to
   * ({@code host:port/db}, lower-case host, defaults filled in) for duplicate detection.
   */
  record Checked(List<String> problems, String server) {}

  private RedisUris() {}

  static Checked check(String uri) {
    List<String> problems = new ArrayList<>();
    if (Placeholders.malformedAt(uri) >= 0) {
      problems.add("contains a malformed placeholder; use ${env:NAME}");
      return new Checked(problems, null);
    }
    RedisUriParts parts = RedisUriParts.split(uri);
    if (!parts.scheme().equals("redis") && !parts.scheme().equals("rediss")) {
      problems.add("must start with redis:// or rediss://, was " + Scalars.quote(redact(uri)));
      return new Checked(problems, null);
    }
    if (parts.query() != null) {
      problems.add(
          "must not have a query or fragment, was "
              + Scalars.quote(parts.query())
              + "; timeouts belong under failover");
    }
    // A lone "secret@" is a password too: Lettuce and redis-cli read it so.
    String password = parts.password();
    if (!password.isEmpty() && !Placeholders.isPlaceholder(password)) {
      problems.add("contains a plain-text password; use ${env:NAME}");
    }
    String host = parts.host();
    String port = parts.port();
    String path = parts.path();
    if (host.startsWith("[")) {
      if (!IPV6.matcher(host).matches()) {
        problems.add("has an invalid host " + Scalars.quote(host));
      }
    } else if (host.isEmpty()) {
      problems.add("has no host");
    } else if (!Placeholders.isPlaceholder(host) && !HOST.matcher(host).matches()) {
      problems.add("has an invalid host " + Scalars.quote(host));
    }
    int portNumber = DEFAULT_PORT;
    if (port != null && !Placeholders.isPlaceholder(port)) {
      portNumber = DIGITS.matcher(port).matches() ? Integer.parseInt(port) : -1;
      if (portNumber < 1 || portNumber > 65535) {
        problems.add("port must be between 1 and 65535, was " + Scalars.quote(port));
      }
    }
    int db = 0;
    if (!path.isEmpty() && !Placeholders.isPlaceholder(path)) {
      db = DIGITS.matcher(path).matches() ? Integer.parseInt(path) : -1;
      if (db < 0) {
        problems.add(
            "database must be a non-negative integer (like /0), was " + Scalars.quote(path));
      }
    }
    String server =
        host.toLowerCase(Locale.ROOT)
            + ":"
            + (port != null && Placeholders.isPlaceholder(port) ? port : portNumber)
            + "/"
            + (Placeholders.isPlaceholder(path) ? path : db);
    return new Checked(problems, server);
  }

  /** The URI with any user info replaced, safe to print. */
  static String redact(String uri) {
    int schemeEnd = uri.indexOf("://");
    int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
    int at = uri.lastIndexOf('@');
    return at < start ? uri : uri.substring(0, start) + "***" + uri.substring(at);
  }
}
