package io.github.chash.kubernetes;

import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one ready endpoint of an EndpointSlice becomes: a node of a type, with a URI made from a
 * template. The template's placeholders are {@code {address}} (the endpoint's first address, an
 * IPv6 one in brackets), {@code {port}} (the slice's port of the given name, or its first port),
 * {@code {hostname}} (the endpoint's hostname) and {@code {id}} (the node's id).
 *
 * <pre>{@code
 * NodeTemplate.of("redis", "redis://{address}:{port}").port("redis")
 * }</pre>
 *
 * @param type the node type, e.g. {@link NodeType#REDIS}
 * @param uri the URI template, e.g. {@code redis://{address}:{port}}; null for {@code local} nodes
 * @param portName the name of the slice's port {@code {port}} stands for; null for the first port
 */
public record NodeTemplate(NodeType type, String uri, String portName) {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z]+)}");

  /**
   * Checks the template.
   *
   * @param type the node type
   * @param uri the URI template, or null for {@code local} nodes
   * @param portName the port's name, or null for the first port
   * @throws IllegalArgumentException if the URI template names a placeholder other than {@code
   *     {address}}, {@code {port}}, {@code {hostname}} and {@code {id}}, or is given for {@code
   *     local} nodes or missing for others
   */
  public NodeTemplate {
    Objects.requireNonNull(type, "type");
    if (type.equals(NodeType.LOCAL) != (uri == null)) {
      throw new IllegalArgumentException(
          type.equals(NodeType.LOCAL)
              ? "a local node has no uri, was " + uri
              : "a " + type.configName() + " node needs a uri template");
    }
    if (uri != null) {
      Matcher m = PLACEHOLDER.matcher(uri);
      while (m.find()) {
        switch (m.group(1)) {
          case "address", "port", "hostname", "id" -> {}
          default ->
              throw new IllegalArgumentException(
                  "uri template "
                      + uri
                      + " names {"
                      + m.group(1)
                      + "}; known are {address}, {port}, {hostname} and {id}");
        }
      }
    }
  }

  /**
   * {@return a template of nodes of {@code type} with a URI from {@code uri}, on the slice's first
   * port}
   *
   * @param type the node type's name, e.g. {@code redis}
   * @param uri the URI template, e.g. {@code redis://{address}:{port}}
   */
  public static NodeTemplate of(String type, String uri) {
    return new NodeTemplate(NodeType.of(type), Objects.requireNonNull(uri, "uri"), null);
  }

  /** {@return a template of in-process {@code local} shards, one per endpoint: for tests, demos} */
  public static NodeTemplate local() {
    return new NodeTemplate(NodeType.LOCAL, null, null);
  }

  /**
   * {@return this template on the slice's port of that name}
   *
   * @param name the port's name in the Service (and so in its EndpointSlices)
   */
  public NodeTemplate port(String name) {
    return new NodeTemplate(type, uri, Objects.requireNonNull(name, "name"));
  }

  /** {@return whether the URI names {@code {port}}} */
  boolean needsPort() {
    return uri != null && uri.contains("{port}");
  }

  /**
   * {@return the node of one endpoint}
   *
   * @throws IllegalArgumentException if the node breaks a rule of {@code nodes:} entries
   */
  NodeConfig node(String id, String address, Integer port, String hostname) {
    if (uri == null) {
      return NodeConfig.local(id);
    }
    Matcher m = PLACEHOLDER.matcher(uri);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value =
          switch (m.group(1)) {
            case "address" -> address.indexOf(':') >= 0 ? "[" + address + "]" : address;
            case "port" -> String.valueOf(port);
            case "hostname" -> hostname == null ? "" : hostname;
            default -> id;
          };
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return new NodeConfig(id, type, 1, 0, out.toString());
  }
}
