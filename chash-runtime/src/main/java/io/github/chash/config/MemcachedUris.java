package io.github.chash.config;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.Quotes;
import io.github.chash.internal.text.RedisUriParts;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a memcached URI as written in {@code chash.yaml}: {@code memcached://host[:port]} (port
 * 11211 by default), placeholders allowed for host and port; no credentials (SASL is not
 * supported), path or query. Cut by {@link RedisUriParts}, the URI reading the Redis nodes use.
 */
public final class MemcachedUris {
  /** The port of a URI without one. */
  public static final int DEFAULT_PORT = 11211;

  private MemcachedUris() {}

  /** {@return what the URI breaks, and its server ({@code host:port})} */
  static ServerUris.Checked check(String uri) {
    List<String> problems = new ArrayList<>();
    RedisUriParts parts = ServerUris.split(uri, List.of("memcached"), problems);
    if (parts == null) {
      return new ServerUris.Checked(problems, null);
    }
    ServerUris.noQuery(parts, problems);
    if (parts.userInfo() != null) {
      problems.add("must not have credentials: memcached nodes do not support SASL");
    }
    if (!parts.path().isEmpty()) {
      problems.add("must not have a path, was " + Quotes.quote("/" + parts.path()));
    }
    String server = ServerUris.hostAndPort(parts, DEFAULT_PORT, problems);
    return new ServerUris.Checked(problems, server);
  }

  /**
   * {@return the host and port of a URI that passed the check, placeholders resolved}
   *
   * @param uri the URI as written
   * @param env resolves {@code ${env:NAME}} (null result: not set)
   * @throws IllegalArgumentException if the URI breaks a rule, or a placeholder is not set
   */
  public static java.net.InetSocketAddress address(
      String uri, java.util.function.Function<String, String> env) {
    ServerUris.Checked checked = check(uri);
    if (!checked.problems().isEmpty()) {
      throw new IllegalArgumentException("uri " + checked.problems().get(0));
    }
    RedisUriParts parts = RedisUriParts.split(uri);
    String host = Placeholders.resolve(parts.host(), env);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port = DEFAULT_PORT;
    if (parts.port() != null) {
      String text = Placeholders.resolve(parts.port(), env);
      port = ServerUris.DIGITS.matcher(text).matches() ? Integer.parseInt(text) : -1;
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException(
            "uri port must be between 1 and 65535, was " + Quotes.quote(text));
      }
    }
    return java.net.InetSocketAddress.createUnresolved(host, port);
  }
}
