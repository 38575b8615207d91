package io.github.chash.config;

import io.github.chash.internal.text.Placeholders;
import io.github.chash.internal.text.Quotes;
import io.github.chash.internal.text.RedisUriParts;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks a Redis URI as written in {@code chash.yaml}: {@code redis://} or {@code rediss://}, an
 * optional {@code [user:]password@} whose password is a {@code ${env:NAME}} placeholder, a host, an
 * optional port (default 6379) and an optional database ({@code /0}). Placeholders may stand for
 * any part. Messages never repeat a password. The URI is cut by {@link RedisUriParts}, the reading
 * the Redis nodes share.
 *
 * <p>A Sentinel-managed shard is {@code redis-sentinel://[[user:]password@]s1[:port],s2[:port],...
 * [/db]#master}: one or more sentinels (default port 26379, none twice), the database, and after
 * {@code #} the name the sentinels monitor the shard's primary by. Its credentials are the
 * primary's; the sentinels are asked without them.
 */
final class RedisUris {
  static final int DEFAULT_PORT = 6379;
  static final int DEFAULT_SENTINEL_PORT = 26379;
  static final String SENTINEL_SCHEME = "redis-sentinel";
  private static final List<String> SCHEMES = List.of("redis", "rediss", SENTINEL_SCHEME);
  private static final Pattern MASTER_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  private RedisUris() {}

  /** {@return what the URI breaks, and its server ({@code host:port/db})} */
  static ServerUris.Checked check(String uri) {
    List<String> problems = new ArrayList<>();
    RedisUriParts parts = ServerUris.split(uri, SCHEMES, problems);
    if (parts == null) {
      return new ServerUris.Checked(problems, null);
    }
    boolean sentinel = parts.scheme().equals(SENTINEL_SCHEME);
    String master = sentinel ? masterName(parts, problems) : null;
    if (!sentinel) {
      ServerUris.noQuery(parts, problems);
    }
    // A lone "secret@" is a password too: Lettuce and redis-cli read it so.
    String password = ServerUris.passwordProblem(parts, true);
    if (password != null) {
      problems.add(password);
    }
    String hostAndPort =
        sentinel
            ? sentinels(parts, problems)
            : ServerUris.hostAndPort(parts, DEFAULT_PORT, problems);
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
    return new ServerUris.Checked(
        problems, sentinel ? "master " + master + " of " + server : server);
  }

  /**
   * The master name after {@code #} of a Sentinel URI, adding the problem when it is missing or
   * malformed (or the URI has a query).
   */
  private static String masterName(RedisUriParts parts, List<String> problems) {
    String query = parts.query();
    if (query == null || !query.startsWith("#") || query.length() == 1) {
      if (query != null && query.startsWith("?")) {
        problems.add("must not have a query, was " + Quotes.quote(ServerUris.maskedQuery(query)));
      } else {
        problems.add(
            "must name the Sentinel master after '#', like"
                + " redis-sentinel://s1:26379,s2:26379,s3:26379/0#shard-a");
      }
      return null;
    }
    String name = query.substring(1);
    if (!Placeholders.isPlaceholder(name) && !MASTER_NAME.matcher(name).matches()) {
      problems.add(
          "has an invalid Sentinel master name "
              + Quotes.quote(name)
              + "; use letters, digits, '.', '_' and '-'");
    }
    return name;
  }

  /**
   * Checks every sentinel of a Sentinel URI, adding the problems.
   *
   * @return the sentinels, each {@code host:port} as {@link ServerUris#hostAndPort} gives it,
   *     sorted and joined by {@code ,}: the same set written in another order is the same shard
   */
  private static String sentinels(RedisUriParts parts, List<String> problems) {
    List<RedisUriParts.HostPort> written = parts.servers();
    TreeSet<String> seen = new TreeSet<>();
    for (int i = 0; i < written.size(); i++) {
      RedisUriParts.HostPort each = written.get(i);
      if (each.host().isEmpty() && each.port() == null && written.size() > 1) {
        problems.add(
            "has an empty entry in its sentinel list (sentinel "
                + (i + 1)
                + " of "
                + written.size()
                + "); separate sentinels by a single ','");
        continue;
      }
      RedisUriParts one =
          new RedisUriParts(
              parts.scheme(), null, null, "", "", each.host(), each.port(), parts.path());
      String server = ServerUris.hostAndPort(one, DEFAULT_SENTINEL_PORT, problems);
      if (!seen.add(server)) {
        problems.add("lists sentinel " + server + " twice");
      }
    }
    return String.join(",", seen);
  }
}
