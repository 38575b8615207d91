package io.github.chash.internal.node;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.internal.codec.BytesCodec;
import io.github.chash.internal.codec.JacksonCodec;
import io.github.chash.internal.codec.JdkSerializationCodec;
import io.github.chash.internal.codec.StringCodec;
import io.github.chash.internal.codec.ValueCodec;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the factories of remote nodes (Redis, memcached) read from a {@code chash.yaml} alike: the
 * command timeout, the codecs, where a node's URI was written, and whether the client library a
 * node needs is on the class path.
 */
public final class RemoteNodeFactories {
  /** The command timeout when {@code failover.timeout} is not set. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(100);

  private static final String JACKSON_CLASS = "com.fasterxml.jackson.databind.ObjectMapper";

  private RemoteNodeFactories() {}

  /**
   * {@return the nodes' command timeout: {@code failover.timeout}, else {@link #DEFAULT_TIMEOUT}}
   *
   * @param config the configuration
   */
  public static Duration timeout(ChashConfig config) {
    FailoverConfig failover = config.failover();
    return failover != null && failover.timeout() != null ? failover.timeout() : DEFAULT_TIMEOUT;
  }

  /**
   * {@return the codec {@code name} stands for} {@code jdk} is serialization behind the block's
   * allow-list; the configuration checked the name is a known one.
   *
   * @param name {@code jdk}, {@code jackson}, {@code string} or {@code bytes}
   * @param setting where it was set ({@code redis.codec}), named when its library is missing
   * @param block the node block ({@code redis}, {@code memcached}), whose {@code allow} refusals
   *     name
   * @param allowedClasses the block's allow-list
   * @throws IllegalArgumentException when the codec is {@code jackson} and Jackson is missing
   */
  public static ValueCodec codec(
      String name, String setting, String block, List<String> allowedClasses) {
    return switch (name) {
      case "jackson" -> {
        // the codec is this module's, so Jackson must be visible from here
        requireClass(
            JACKSON_CLASS,
            RemoteNodeFactories.class,
            "com.fasterxml.jackson.core:jackson-databind",
            setting + " is jackson");
        yield new JacksonCodec();
      }
      case "string" -> new StringCodec();
      case "bytes" -> new BytesCodec();
      default -> new JdkSerializationCodec(allowedClasses, block);
    };
  }

  /**
   * Checks a factory was given a node of its type, and the client library the node needs is on the
   * class path.
   *
   * @param node the node to create
   * @param config the configuration it is part of
   * @param type the factory's node type
   * @param factory the factory's class: the client library is looked up from its class loader, as
   *     the node classes that use it will be (which need not be this module's)
   * @param clientClass a class of the client library
   * @param artifact the dependency that has it, as the message names it
   * @throws NullPointerException if {@code node} or {@code config} is null
   * @throws IllegalArgumentException naming the node if it is of another type or the library is
   *     missing
   */
  public static void requireNode(
      NodeConfig node,
      ChashConfig config,
      NodeType type,
      Class<?> factory,
      String clientClass,
      String artifact) {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(config, "config");
    String name = type.configName();
    if (!node.type().equals(type)) {
      throw new IllegalArgumentException(
          "node \"" + node.id() + "\" is of type " + node.type().configName() + ", not " + name);
    }
    requireClass(clientClass, factory, artifact, "node \"" + node.id() + "\" is of type " + name);
  }

  /**
   * Fails unless a class is visible to the code that needs it.
   *
   * @param className the class a node needs
   * @param user a class of the code that needs it, whose class loader must see it
   * @param artifact the dependency that has it, as the message names it
   * @param why what needs it, as the message begins
   * @throws IllegalArgumentException when it is missing
   */
  private static void requireClass(String className, Class<?> user, String artifact, String why) {
    try {
      Class.forName(className, false, user.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException(
          why + ", but " + artifact + " is not on the class path; add it as a dependency", e);
    }
  }

  /**
   * {@return a node's unusable URI (an unset environment variable is found only now) as a failure
   * that says where the URI was written}
   *
   * @param node the node
   * @param config the configuration it is part of
   * @param problem what is wrong with it, naming the node
   * @param cause the failure that found it
   */
  public static IllegalArgumentException uriProblem(
      NodeConfig node, ChashConfig config, String problem, IllegalArgumentException cause) {
    String where = config.where("nodes[" + config.nodes().indexOf(node) + "].uri");
    return new IllegalArgumentException(where + ": " + problem, cause);
  }
}
