package io.github.chash.redis;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.RedisUriParts;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Where a Redis node lives and how to log in: a node's {@code uri} from {@code chash.yaml} with its
 * {@code ${env:NAME}} placeholders resolved ({@link Placeholders}), part by part (so a password may
 * contain {@code @}, {@code :} or {@code /} without escaping). The URI is cut by {@link
 * RedisUriParts}, the same reading the configuration check uses.
 *
 * <p>The password is held as a {@code char[]} and never printed: {@link #toString()} gives {@code
 * redis://***@host:port/db}. Error messages quote the URI as written (placeholders, never their
 * values). Immutable and thread-safe.
 */
final class RedisEndpoint {
  static final int DEFAULT_PORT = 6379;
  // only to spot a malformed placeholder; cutting the URI is RedisUriParts' job
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

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
   * Parses a URI as written in {@code chash.yaml} and resolves its placeholders through {@code
   * env}.
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
    RedisUriParts parts = RedisUriParts.split(written);
    String scheme = parts.scheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("redis") && !scheme.equals("rediss")) {
      throw bad(nodeId, written, "must start with redis:// or rediss://");
    }
    if (PLACEHOLDER.matcher(written).replaceAll("").contains("${")) {
      throw new IllegalArgumentException(
          "node \"" + nodeId + "\": uri contains a malformed placeholder; use ${env:NAME}");
    }
    if (parts.query() != null) {
      throw bad(nodeId, written, "must not have a query or fragment");
    }
    String user = null;
    char[] password = null;
    if (parts.userInfo() != null) {
      if (!parts.password().isEmpty() && !Placeholders.isPlaceholder(parts.password())) {
        throw bad(nodeId, written, "contains a plain-text password; use ${env:NAME}");
      }
      String resolvedUser = resolve(nodeId, parts.user(), env);
      user = resolvedUser.isEmpty() ? null : resolvedUser;
      password =
          parts.password().isEmpty() ? null : resolve(nodeId, parts.password(), env).toCharArray();
    }
    String hostPart = parts.host();
    if (hostPart.startsWith("[")) {
      if (hostPart.indexOf(']') < 0) {
        throw bad(nodeId, written, "has an unclosed IPv6 host");
      }
      if (!hostPart.endsWith("]")) {
        throw bad(nodeId, written, "has an invalid host");
      }
      hostPart = hostPart.substring(1, hostPart.length() - 1);
    }
    String portPart = parts.port() == null ? "" : parts.port();
    String path = parts.path();
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
        + shownHost
        + ":"
        + port
        + "/"
        + database;
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

  private static String resolve(String nodeId, String text, Function<String, String> env) {
    try {
      return Placeholders.resolve(text, env);
    } catch (IllegalArgumentException e) {
      // the message names the variable, never a value
      throw new IllegalArgumentException(
          "node \"" + nodeId + "\": " + e.getMessage() + " in its uri", e);
    }
  }

  private static int number(String nodeId, String written, String what, String text, int absent) {
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
