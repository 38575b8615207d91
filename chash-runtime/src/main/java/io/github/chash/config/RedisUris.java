package io.github.chash.config;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.Quotes;
import io.github.chash.internal.text.RedisUriParts;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a Redis URI as written in {@code chash.yaml}: {@code redis://} or {@code rediss://}, an
 * optional {@code [user:]password@} whose password is a {@code ${env:NAME}} placeholder, a host, an
 * optional port (default 6379) and an optional database ({@code /0}). Placeholders may stand for
 * any part. Messages never repeat a password. The URI is cut by {@link RedisUriParts}, the reading
 * the Redis nodes share.
 */
final class RedisUris {
  static final int DEFAULT_PORT = 6379;

  /**
   * The outcome: message tails to print after the key's path, and the server the URI points to
   * ({@code host:port/db}, lower-case host, defaults filled in) for duplicate detection.
   */
  record Checked(List<String> problems, String server) {}

  private RedisUris() {}

  static Checked check(String uri) {
    List<String> problems = new ArrayList<>();
    if (ServerUris.malformedPlaceholder(uri, problems)) {
      return new Checked(problems, null);
    }
    RedisUriParts parts = RedisUriParts.split(uri);
    if (!parts.scheme().equals("redis") && !parts.scheme().equals("rediss")) {
      problems.add("must start with redis:// or rediss://, was " + Quotes.quote(redact(uri)));
      return new Checked(problems, null);
    }
    ServerUris.noQuery(parts, problems);
    // A lone "secret@" is a password too: Lettuce and redis-cli read it so.
    String password = parts.password();
    if (!password.isEmpty() && !Placeholders.isPlaceholder(password)) {
      problems.add("contains a plain-text password; use ${env:NAME}");
    }
    String hostAndPort = ServerUris.hostAndPort(parts, DEFAULT_PORT, problems);
    String path = parts.path();
    int db = 0;
    if (!path.isEmpty() && !Placeholders.isPlaceholder(path)) {
      db = ServerUris.DIGITS.matcher(path).matches() ? Integer.parseInt(path) : -1;
      if (db < 0) {
        problems.add(
            "database must be a non-negative integer (like /0), was " + Quotes.quote(path));
      }
    }
    String server = hostAndPort + "/" + (Placeholders.isPlaceholder(path) ? path : db);
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
