package io.github.chash.redis;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.RedisUriParts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where a Redis node lives and how to log in: a node's {@code uri} from {@code chash.yaml} with its
 * {@code ${env:NAME}} placeholders resolved ({@link Placeholders}), part by part (so a password may
 * contain {@code @}, {@code :} or {@code /} without escaping). The URI is cut by {@link
 * RedisUriParts}, the same reading the configuration check uses.
 *
 * <p>A Sentinel-managed shard ({@code redis-sentinel://s1[:port],s2[:port]/db#master}) has no host
 * of its own: {@link #sentinels()} lists where to ask for the current primary of {@link
 * #masterName()}, and the credentials are the primary's.
 *
 * <p>The password is held as a {@code char[]} and never printed: {@link #toString()} gives {@code
 * redis://***@host:port/db}. Error messages quote the URI as written (placeholders, never their
 * values). Immutable and thread-safe.
 */
final class RedisEndpoint {
  static final int DEFAULT_PORT = 6379;
  static final int DEFAULT_SENTINEL_PORT = 26379;
  private static final String SENTINEL_SCHEME = "redis-sentinel";
  private static final Pattern MASTER_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /**
   * One sentinel of a Sentinel-managed shard.
   *
   * @param host its host, resolved (an IPv6 host without brackets)
   * @param port its port
   */
  record Sentinel(String host, int port) {
    @Override
    public String toString() {
      return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
  }

  // only to spot a malformed placeholder; cutting the URI is RedisUriParts' job
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  private final boolean ssl;
  private final String host;
  private final int port;
  private final int database;
  private final String user;
  private final char[] password;
  private final List<Sentinel> sentinels;
  private final String masterName;

  private RedisEndpoint(
      boolean ssl,
      String host,
      int port,
      int database,
      String user,
      char[] password,
      List<Sentinel> sentinels,
      String masterName) {
    this.ssl = ssl;
    this.host = host;
    this.port = port;
    this.database = database;
    this.user = user;
    this.password = password;
    this.sentinels = sentinels;
    this.masterName = masterName;
  }

  /**
   * Parses a URI as written in {@code chash.yaml} and resolves its placeholders through {@code
   * env}.
   *
   * @param nodeId the node, for messages
   * @param written {@code redis[s]://[[user]:password@]host[:port][/database]}, or {@code
   *     redis-sentinel://[[user]:password@]s1[:port][,s2[:port]...][/database]#master}
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
    boolean sentinel = scheme.equals(SENTINEL_SCHEME);
    if (!sentinel && !scheme.equals("redis") && !scheme.equals("rediss")) {
      throw bad(nodeId, written, "must start with redis://, rediss:// or redis-sentinel://");
    }
    if (PLACEHOLDER.matcher(written).replaceAll("").contains("${")) {
      throw new IllegalArgumentException(
          "node \"" + nodeId + "\": uri contains a malformed placeholder; use ${env:NAME}");
    }
    String masterName = null;
    if (sentinel) {
      String query = parts.query();
      if (query == null || !query.startsWith("#") || query.length() == 1) {
        throw bad(nodeId, written, "must name the Sentinel master after '#'");
      }
      masterName = resolve(nodeId, query.substring(1), env);
      if (!MASTER_NAME.matcher(masterName).matches()) {
        // the name may come from a placeholder, but a master name is no secret
        throw bad(
            nodeId,
            written,
            "has an invalid Sentinel master name \""
                + masterName
                + "\"; use letters, digits, '.', '_' and '-'");
      }
    } else if (parts.query() != null) {
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
    int database = number(nodeId, written, "database", resolve(nodeId, parts.path(), env), 0);
    if (sentinel) {
      List<Sentinel> sentinels = new ArrayList<>();
      for (RedisUriParts.HostPort each : parts.servers()) {
        Sentinel one = server(nodeId, written, each, env, DEFAULT_SENTINEL_PORT, Sentinel::new);
        if (sentinels.contains(one)) {
          throw bad(nodeId, written, "lists sentinel " + one + " twice");
        }
        sentinels.add(one);
      }
      Sentinel first = sentinels.get(0);
      return new RedisEndpoint(
          false,
          first.host(),
          first.port(),
          database,
          user,
          password,
          List.copyOf(sentinels),
          masterName);
    }
    Sentinel server =
        server(
            nodeId,
            written,
            new RedisUriParts.HostPort(parts.host(), parts.port()),
            env,
            DEFAULT_PORT,
            Sentinel::new);
    return new RedisEndpoint(
        scheme.equals("rediss"),
        server.host(),
        server.port(),
        database,
        user,
        password,
        List.of(),
        null);
  }

  /** A host and port, resolved and checked; a sentinel's or the server's. */
  private static <T> T server(
      String nodeId,
      String written,
      RedisUriParts.HostPort part,
      Function<String, String> env,
      int defaultPort,
      java.util.function.BiFunction<String, Integer, T> make) {
    String hostPart = part.host();
    if (hostPart.startsWith("[")) {
      if (hostPart.indexOf(']') < 0) {
        throw bad(nodeId, written, "has an unclosed IPv6 host");
      }
      if (!hostPart.endsWith("]")) {
        throw bad(nodeId, written, "has an invalid host");
      }
      hostPart = hostPart.substring(1, hostPart.length() - 1);
    }
    String portPart = part.port() == null ? "" : part.port();
    String host = resolve(nodeId, hostPart, env);
    if (host.isEmpty()) {
      throw bad(nodeId, written, "has no host");
    }
    int port = number(nodeId, written, "port", resolve(nodeId, portPart, env), defaultPort);
    if (port < 1 || port > 65535) {
      throw bad(nodeId, written, "port must be between 1 and 65535, was " + port);
    }
    return make.apply(host, port);
  }

  /** Whether this is a Sentinel-managed shard: its primary is whichever the sentinels name. */
  boolean isSentinel() {
    return !sentinels.isEmpty();
  }

  /** The sentinels of a Sentinel-managed shard, in the order written; empty for a server. */
  List<Sentinel> sentinels() {
    return sentinels;
  }

  /** The name the sentinels monitor the shard's primary by; null for a server. */
  String masterName() {
    return masterName;
  }

  boolean ssl() {
    return ssl;
  }

  /** The server's host; a Sentinel shard's first sentinel's. */
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

  /**
   * {@code redis://***@host:port/db} or {@code redis-sentinel://***@s1:26379,s2:26379/db#master}:
   * credentials masked, everything else shown.
   */
  @Override
  public String toString() {
    String credentials = user != null || password != null ? "***@" : "";
    if (isSentinel()) {
      return "redis-sentinel://"
          + credentials
          + sentinels.stream().map(Sentinel::toString).collect(Collectors.joining(","))
          + "/"
          + database
          + "#"
          + masterName;
    }
    String shownHost = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return (ssl ? "rediss://" : "redis://") + credentials + shownHost + ":" + port + "/" + database;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RedisEndpoint other
        && ssl == other.ssl
        && host.equals(other.host)
        && port == other.port
        && database == other.database
        && Objects.equals(user, other.user)
        && Arrays.equals(password, other.password)
        && sentinels.equals(other.sentinels)
        && Objects.equals(masterName, other.masterName);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ssl, host, port, database, user, sentinels, masterName);
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
