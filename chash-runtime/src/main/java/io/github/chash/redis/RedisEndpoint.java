package io.github.chash.redis;

import io.github.chash.config.Placeholders;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a Redis node lives and how to log in: a node's {@code uri} from {@code chash.yaml} with its
 * {@code ${env:NAME}} placeholders resolved ({@link Placeholders}), part by part (so a password may contain {@code @},
 * {@code :} or {@code /} without escaping).
 *
 * <p>The password is held as a {@code char[]} and never printed: {@link #toString()} gives {@code
 * redis://***@host:port/db}. Error messages quote the URI as written (placeholders, never their
 * values). Immutable and thread-safe.
 */
final class RedisEndpoint {
  static final int DEFAULT_PORT = 6379;
  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  private final boolean ssl;
  private final String host;
  private final int port;
  private final int database;
  private final String user;
  private final char[] password;

  private RedisEndpoint(
      boolean ssl, String host, int port, int database, String user, char[] password) {
    this.ssl = ssl;
    this.host = host;
    this.port = port;
    this.database = database;
    this.user = user;
    this.password = password;
  }

  /**
   * Parses a URI as written in {@code chash.yaml} and resolves its placeholders through {@code env}.
   *
   * @param nodeId the node, for messages
   * @param written {@code redis[s]://[[user]:password@]host[:port][/database]}
   * @param env environment lookup ({@code System::getenv} in production); null means "not set"
   * @throws IllegalArgumentException naming the node and the problem; never containing a resolved
   *     value
   */
  static RedisEndpoint parse(String nodeId, String written, Function<String, String> env) {
    Objects.requireNonNull(env, "env");
    if (written == null || written.isBlank()) {
      throw new IllegalArgumentException("node \"" + nodeId + "\": uri is missing");
    }
    int schemeEnd = written.indexOf("://");
    String scheme = schemeEnd < 0 ? "" : written.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
    if (!scheme.equals("redis") && !scheme.equals("rediss")) {
      throw bad(nodeId, written, "must start with redis:// or rediss://");
    }
    if (PLACEHOLDER.matcher(written).replaceAll("").contains("${")) {
      throw new IllegalArgumentException(
          "node \"" + nodeId + "\": uri contains a malformed placeholder; use ${env:NAME}");
    }
    String rest = written.substring(schemeEnd + 3);
    // separators are searched in a copy whose placeholders are blanked: "${env:X}" holds a ':'
    String masked = mask(rest);
    int slash = masked.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String maskedAuthority = slash < 0 ? masked : masked.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    String user = null;
    char[] password = null;
    int at = maskedAuthority.lastIndexOf('@');
    if (at >= 0) {
      String userInfo = authority.substring(0, at);
      int colon = maskedAuthority.substring(0, at).indexOf(':');
      authority = authority.substring(at + 1);
      maskedAuthority = maskedAuthority.substring(at + 1);
      String userPart = colon < 0 ? "" : userInfo.substring(0, colon);
      String passwordPart = colon < 0 ? userInfo : userInfo.substring(colon + 1);
      if (!passwordPart.isEmpty() && !Placeholders.isPlaceholder(passwordPart)) {
        throw bad(nodeId, written, "contains a plain-text password; use ${env:NAME}");
      }
      String resolvedUser = resolve(nodeId, userPart, env);
      user = resolvedUser.isEmpty() ? null : resolvedUser;
      password = passwordPart.isEmpty() ? null : resolve(nodeId, passwordPart, env).toCharArray();
    }
    String hostPart;
    String portPart;
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw bad(nodeId, written, "has an unclosed IPv6 host");
      }
      hostPart = authority.substring(1, close);
      String after = authority.substring(close + 1);
      portPart = after.startsWith(":") ? after.substring(1) : "";
    } else {
      int colon = maskedAuthority.lastIndexOf(':');
      hostPart = colon < 0 ? authority : authority.substring(0, colon);
      portPart = colon < 0 ? "" : authority.substring(colon + 1);
    }
    String host = resolve(nodeId, hostPart, env);
    if (host.isEmpty()) {
      throw bad(nodeId, written, "has no host");
    }
    int port = number(nodeId, written, "port", resolve(nodeId, portPart, env), DEFAULT_PORT);
    if (port < 1 || port > 65535) {
      throw bad(nodeId, written, "port must be between 1 and 65535, was " + port);
    }
    int database = number(nodeId, written, "database", resolve(nodeId, path, env), 0);
    return new RedisEndpoint(scheme.equals("rediss"), host, port, database, user, password);
  }

  boolean ssl() {
    return ssl;
  }

  String host() {
    return host;
  }

  int port() {
    return port;
  }

  int database() {
    return database;
  }

  /** The ACL user, or null for the default user. */
  String user() {
    return user;
  }

  /** A copy of the password, or null; the caller should clear it after use. */
  char[] password() {
    return password == null ? null : password.clone();
  }

  /** Whether the URI carries a user or password. */
  boolean hasCredentials() {
    return user != null || password != null;
  }

  /** {@code redis://***@host:port/db}: credentials masked, everything else shown. */
  @Override
  public String toString() {
    String shownHost = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return (ssl ? "rediss://" : "redis://")
        + (user != null || password != null ? "***@" : "")
        + shownHost + ":" + port + "/" + database;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RedisEndpoint other
        && ssl == other.ssl
        && host.equals(other.host)
        && port == other.port
        && database == other.database
        && Objects.equals(user, other.user)
        && Arrays.equals(password, other.password);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ssl, host, port, database, user);
  }

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

  private static String resolve(String nodeId, String text, Function<String, String> env) {
    try {
      return Placeholders.resolve(text, env);
    } catch (IllegalArgumentException e) {
      // the message names the variable, never a value
      throw new IllegalArgumentException("node \"" + nodeId + "\": " + e.getMessage() + " in its uri", e);
    }
  }

  private static int number(
      String nodeId, String written, String what, String text, int absent) {
    if (text.isEmpty()) {
      return absent;
    }
    try {
      int value = Integer.parseInt(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    // the number may come from a placeholder, but a port or database number is no secret
    throw bad(nodeId, written, what + " must be a non-negative integer, was \"" + text + "\"");
  }

  private static IllegalArgumentException bad(String nodeId, String written, String problem) {
    return new IllegalArgumentException(
        "node \"" + nodeId + "\": uri " + problem + "; was \"" + redact(written) + "\"");
  }

  /** The URI as written with any user info masked (a plain-text password must not be echoed). */
  static String redact(String written) {
    int schemeEnd = written.indexOf("://");
    int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
    int slash = written.indexOf('/', start);
    int at = written.lastIndexOf('@', slash < 0 ? written.length() : slash);
    return at < start ? written : written.substring(0, start) + "***" + written.substring(at);
  }
}
