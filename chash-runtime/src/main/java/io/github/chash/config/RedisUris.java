package io.github.chash.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a Redis URI as written in {@code chash.yaml}: {@code redis://} or {@code rediss://}, an
 * optional {@code [user:]password@} whose password is a {@code ${env:NAME}} placeholder, a host, an
 * optional port (default 6379) and an optional database ({@code /0}). Placeholders may stand for
 * any part. Messages never repeat a password.
 */
final class RedisUris {
  static final int DEFAULT_PORT = 6379;
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]+]");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{env:[A-Za-z_][A-Za-z0-9_]*}");
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
    int schemeEnd = uri.indexOf("://");
    String scheme = schemeEnd < 0 ? "" : uri.substring(0, schemeEnd);
    if (!scheme.equals("redis") && !scheme.equals("rediss")) {
      problems.add("must start with redis:// or rediss://, was " + Scalars.quote(redact(uri)));
      return new Checked(problems, null);
    }
    String rest = uri.substring(schemeEnd + 3);
    int queryAt = indexOfAny(rest, "?#");
    if (queryAt >= 0) {
      problems.add(
          "must not have a query or fragment, was "
              + Scalars.quote(rest.substring(queryAt))
              + "; timeouts belong under failover");
      rest = rest.substring(0, queryAt);
    }
    // Placeholders contain ':'; search for separators in a copy where they are blanked out.
    String masked = mask(rest);
    int slash = masked.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String maskedAuthority = slash < 0 ? masked : masked.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    int at = maskedAuthority.lastIndexOf('@');
    if (at >= 0) {
      String userInfo = authority.substring(0, at);
      String password = userInfo.substring(maskedAuthority.substring(0, at).indexOf(':') + 1);
      // A lone "secret@" is a password too: Lettuce and redis-cli read it so.
      if (!password.isEmpty() && !Placeholders.isPlaceholder(password)) {
        problems.add("contains a plain-text password; use ${env:NAME}");
      }
      authority = authority.substring(at + 1);
      maskedAuthority = maskedAuthority.substring(at + 1);
    }
    String host;
    String port;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      host = close < 0 ? authority : authority.substring(0, close + 1);
      String after = close < 0 ? "" : authority.substring(close + 1);
      port = after.startsWith(":") ? after.substring(1) : null;
      if (!IPV6.matcher(host).matches() || !(after.isEmpty() || after.startsWith(":"))) {
        problems.add("has an invalid host " + Scalars.quote(host));
      }
    } else {
      int colon = maskedAuthority.lastIndexOf(':');
      host = colon < 0 ? authority : authority.substring(0, colon);
      port = colon < 0 ? null : authority.substring(colon + 1);
      if (host.isEmpty()) {
        problems.add("has no host");
      } else if (!Placeholders.isPlaceholder(host) && !HOST.matcher(host).matches()) {
        problems.add("has an invalid host " + Scalars.quote(host));
      }
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

  /** The text with every character of each placeholder replaced by '_', same length. */
  private static String mask(String text) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder(text);
    while (m.find()) {
      for (int i = m.start(); i < m.end(); i++) {
        out.setCharAt(i, '_');
      }
    }
    return out.toString();
  }

  private static int indexOfAny(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }
}
