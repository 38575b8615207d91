package io.github.chash.spring.boot;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.chash.config.NodeType;
import io.github.chash.kubernetes.KubernetesSource;
import io.github.chash.kubernetes.NodeTemplate;
import io.github.chash.membership.MembershipListener;
import io.github.chash.membership.MembershipSource;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * {@code chash.membership.source=kubernetes}: {@link KubernetesSource#service} from properties, on
 * the application's {@link KubernetesClient} bean when it has one (configured as it chose), else on
 * a client fabric8 configures as it finds it (in a pod: its service account), closed with the
 * source.
 */
final class KubernetesSources implements MembershipSourceFactory {
  private static final String PREFIX = "chash.membership.kubernetes.";

  private final MembershipProperties.Kubernetes properties;
  private final KubernetesClient applicationClient;

  /**
   * @param properties {@code chash.membership.kubernetes.*}
   * @param applicationClient the application's client, or null to build one
   */
  KubernetesSources(
      MembershipProperties.Kubernetes properties, KubernetesClient applicationClient) {
    this.properties = properties;
    this.applicationClient = applicationClient;
  }

  @Override
  public MembershipProperties.Source kind() {
    return MembershipProperties.Source.KUBERNETES;
  }

  @Override
  public MembershipSource create() {
    String service =
        PropertyValues.required(PREFIX + "service", properties.getService(), "redis-cache");
    NodeTemplate template = template();
    var probe = PropertyValues.positive(PREFIX + "probe-interval", properties.getProbeInterval());
    KubernetesClient client =
        applicationClient != null ? applicationClient : new KubernetesClientBuilder().build();
    try {
      String namespace =
          properties.getNamespace() != null ? properties.getNamespace() : client.getNamespace();
      PropertyValues.required(PREFIX + "namespace", namespace, "shop");
      KubernetesSource source =
          KubernetesSource.service(client, namespace, service, template, probe);
      return applicationClient != null ? source : new ClientClosing(source, client);
    } catch (RuntimeException e) {
      if (applicationClient == null) {
        client.close();
      }
      throw e;
    }
  }

  /** The node template, each of its errors naming the property it comes from. */
  private NodeTemplate template() {
    String typeName =
        PropertyValues.required(PREFIX + "node-type", properties.getNodeType(), "redis");
    NodeType type;
    try {
      type = NodeType.of(typeName);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + "node-type", typeName, e.getMessage());
    }
    try {
      NodeTemplate template = new NodeTemplate(type, properties.getUri(), null);
      return properties.getPortName() == null ? template : template.port(properties.getPortName());
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + "uri", properties.getUri(), e.getMessage());
    }
  }

  /** The source on a client the starter built: the client is closed after the source. */
  private record ClientClosing(KubernetesSource source, KubernetesClient client)
      implements MembershipSource {
    @Override
    public String describe() {
      return source.describe();
    }

    @Override
    public void start(MembershipListener listener) {
      source.start(listener);
    }

    @Override
    public void close() {
      source.close();
      client.close();
    }
  }
}
