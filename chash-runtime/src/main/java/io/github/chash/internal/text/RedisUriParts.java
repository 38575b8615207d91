package io.github.chash.internal.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's Redis URI as written in {@code chash.yaml}, cut into its parts but not checked and with
 * its {@code ${env:NAME}} placeholders left in place: the one reading of the URI shared by the
 * configuration check (which validates the parts) and the Redis nodes (which resolve them). A
 * placeholder may stand for any part and may hold {@code :}; separators inside placeholders are
 * ignored.
 *
 * <p>The shape is {@code scheme://[[user]:password@]host[:port][/path][?query]}; a lone {@code
 * secret@} is a password (as Lettuce and redis-cli read it). A {@code redis-sentinel://} URI lists
 * several {@code host[:port]} separated by {@code ,}: {@link #host} and {@link #port} then cut the
 * whole list at its last {@code :}, and {@link #servers} gives each entry. Linear in the URI's
 * length; immutable and thread-safe.
 *
 * @param scheme the text before {@code ://} as written (not lower-cased), {@code ""} if there is no
 *     {@code ://}
 * @param query the text from the first {@code ?} or {@code #} on, null if there is none
 * @param userInfo the text before the last {@code @} of the authority, null if there is none
 * @param user the user, before the first {@code :} of the user info; {@code ""} if none
 * @param password the password, after that {@code :} (all the user info when it has none); {@code
 *     ""} if none
 * @param host the host; an IPv6 host keeps its brackets, and an unclosed {@code [} or text after
 *     the {@code ]} other than {@code :port} keeps the whole rest of the authority
 * @param port the text after the host's {@code :}, null if there is none
 * @param path the text after the first {@code /} (the database), {@code ""} if none
 */
public record RedisUriParts(
    String scheme,
    String query,
    String userInfo,
    String user,
    String password,
    String host,
    String port,
    String path) {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{env:[A-Za-z_][A-Za-z0-9_]*}");

  /**
   * Cuts a URI into its parts.
   *
   * @param uri the URI as written, placeholders unresolved
   * @return the parts; never fails, checking them is the caller's job
   */
  public static RedisUriParts split(String uri) {
    int schemeEnd = uri.indexOf("://");
    String scheme = schemeEnd < 0 ? "" : uri.substring(0, schemeEnd);
    String rest = schemeEnd < 0 ? uri : uri.substring(schemeEnd + 3);
    String query = null;
    int queryAt = indexOfAny(rest, "?#");
    if (queryAt >= 0) {
      query = rest.substring(queryAt);
      rest = rest.substring(0, queryAt);
    }
    // Placeholders contain ':'; search for separators in a copy where they are blanked out.
    String masked = mask(rest);
    int slash = masked.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String maskedAuthority = slash < 0 ? masked : masked.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    String userInfo = null;
    String user = "";
    String password = "";
    int at = maskedAuthority.lastIndexOf('@');
    if (at >= 0) {
      userInfo = authority.substring(0, at);
      int colon = maskedAuthority.substring(0, at).indexOf(':');
      user = colon < 0 ? "" : userInfo.substring(0, colon);
      password = userInfo.substring(colon + 1);
      authority = authority.substring(at + 1);
      maskedAuthority = maskedAuthority.substring(at + 1);
    }
    HostPort server = hostPort(authority, maskedAuthority);
    return new RedisUriParts(
        scheme, query, userInfo, user, password, server.host(), server.port(), path);
  }

  /**
   * A host and its port as written, placeholders unresolved.
   *
   * @param host the host; an IPv6 host keeps its brackets (see {@link RedisUriParts#host})
   * @param port the text after the host's {@code :}, null if there is none
   */
  public record HostPort(String host, String port) {}

  /**
   * The servers the authority lists, cut at each {@code ,}: one for a {@code redis://} URI, every
   * sentinel for a {@code redis-sentinel://} one ({@code s1:26379,s2:26379}). An empty entry (as in
   * {@code s1,,s2} or a trailing comma) is kept, with an empty host, for the check to report.
   *
   * @return the servers in the order written, at least one
   */
  public List<HostPort> servers() {
    String authority = port == null ? host : host + ":" + port;
    String masked = mask(authority);
    List<HostPort> servers = new ArrayList<>();
    int start = 0;
    while (true) {
      int comma = masked.indexOf(',', start);
      int end = comma < 0 ? authority.length() : comma;
      servers.add(hostPort(authority.substring(start, end), masked.substring(start, end)));
      if (comma < 0) {
        return servers;
      }
      start = comma + 1;
    }
  }

  private static HostPort hostPort(String authority, String maskedAuthority) {
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      String after = close < 0 ? "" : authority.substring(close + 1);
      boolean portOrNothing = after.isEmpty() || after.startsWith(":");
      String host = close < 0 || !portOrNothing ? authority : authority.substring(0, close + 1);
      String port = close >= 0 && after.startsWith(":") ? after.substring(1) : null;
      return new HostPort(host, port);
    }
    int colon = maskedAuthority.lastIndexOf(':');
    return colon < 0
        ? new HostPort(authority, null)
        : new HostPort(authority.substring(0, colon), authority.substring(colon + 1));
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
