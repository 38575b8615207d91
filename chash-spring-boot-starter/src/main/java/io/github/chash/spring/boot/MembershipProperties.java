package io.github.chash.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code chash.membership.*} properties: which membership source the running ring follows, and
 * what that source's own factory method needs ({@code ZooKeeperSource.connect}, {@code
 * EtcdSource.connect}, {@code KubernetesSource.service}); nothing more, so that a property always
 * means what the plain-Java call's parameter means.
 */
@ConfigurationProperties("chash.membership")
public class MembershipProperties {
  /**
   * The membership source the ring follows: zookeeper, etcd or kubernetes, each with its module
   * (io.github.chash:chash-zookeeper, chash-etcd, chash-kubernetes) on the class path; unset, the
   * nodes are chash.yaml's only.
   */
  private Source source;

  private final ZooKeeper zookeeper = new ZooKeeper();
  private final Etcd etcd = new Etcd();
  private final Kubernetes kubernetes = new Kubernetes();

  /** Creates the defaults (no source); Spring Boot binds the properties. */
  public MembershipProperties() {}

  /** The sources the starter can build. */
  public enum Source {
    /** A znode, through Curator: {@code chash-zookeeper}. */
    ZOOKEEPER,
    /** A key or a prefix, through jetcd: {@code chash-etcd}. */
    ETCD,
    /** A Service's EndpointSlices, through fabric8: {@code chash-kubernetes}. */
    KUBERNETES
  }

  /** {@return the source the ring follows, or null for none} */
  public Source getSource() {
    return source;
  }

  /**
   * Sets the source the ring follows.
   *
   * @param source the source, or null for none
   */
  public void setSource(Source source) {
    this.source = source;
  }

  /** {@return the ZooKeeper source's settings} */
  public ZooKeeper getZookeeper() {
    return zookeeper;
  }

  /** {@return the etcd source's settings} */
  public Etcd getEtcd() {
    return etcd;
  }

  /** {@return the Kubernetes source's settings} */
  public Kubernetes getKubernetes() {
    return kubernetes;
  }

  /** {@code chash.membership.zookeeper.*}: {@code ZooKeeperSource.connect}'s parameters. */
  public static class ZooKeeper {
    /** The ensemble, e.g. zk1:2181,zk2:2181,zk3:2181. */
    private String connectString;

    /** The znode whose data is the ring (a chash.yaml document), e.g. /chash/nodes. */
    private String path;

    /** The ZooKeeper session timeout; 60s, as Curator's own default. */
    private Duration sessionTimeout = Duration.ofSeconds(60);

    /** Creates the defaults. */
    public ZooKeeper() {}

    /** {@return the ensemble} */
    public String getConnectString() {
      return connectString;
    }

    /**
     * Sets the ensemble.
     *
     * @param connectString the ensemble, e.g. {@code zk1:2181,zk2:2181}
     */
    public void setConnectString(String connectString) {
      this.connectString = connectString;
    }

    /** {@return the znode that holds the ring} */
    public String getPath() {
      return path;
    }

    /**
     * Sets the znode that holds the ring.
     *
     * @param path the znode, e.g. {@code /chash/nodes}
     */
    public void setPath(String path) {
      this.path = path;
    }

    /** {@return the session timeout} */
    public Duration getSessionTimeout() {
      return sessionTimeout;
    }

    /**
     * Sets the session timeout.
     *
     * @param sessionTimeout the session timeout
     */
    public void setSessionTimeout(Duration sessionTimeout) {
      this.sessionTimeout = sessionTimeout;
    }
  }

  /** {@code chash.membership.etcd.*}: {@code EtcdSource.connect}'s parameters. */
  public static class Etcd {
    /** The cluster's client URLs, e.g. http://etcd1:2379,http://etcd2:2379. */
    private List<String> endpoints = new ArrayList<>();

    /** The key whose value is the ring (a chash.yaml document), e.g. /chash/ring; or set prefix. */
    private String key;

    /**
     * The prefix under which each key holds one node (a nodes: entry), e.g. /chash/nodes/; or set
     * key.
     */
    private String prefix;

    /** How often etcd is read to tell whether it is reachable. */
    private Duration probeInterval = Duration.ofSeconds(1);

    /** Creates the defaults. */
    public Etcd() {}

    /** {@return the cluster's client URLs} */
    public List<String> getEndpoints() {
      return endpoints;
    }

    /**
     * Sets the cluster's client URLs.
     *
     * @param endpoints the URLs
     */
    public void setEndpoints(List<String> endpoints) {
      this.endpoints = endpoints;
    }

    /** {@return the key that holds the ring, or null when a prefix does} */
    public String getKey() {
      return key;
    }

    /**
     * Sets the key that holds the ring.
     *
     * @param key the key, e.g. {@code /chash/ring}
     */
    public void setKey(String key) {
      this.key = key;
    }

    /** {@return the prefix of one key per node, or null when a key holds the ring} */
    public String getPrefix() {
      return prefix;
    }

    /**
     * Sets the prefix of one key per node.
     *
     * @param prefix the prefix, e.g. {@code /chash/nodes/}
     */
    public void setPrefix(String prefix) {
      this.prefix = prefix;
    }

    /** {@return how often etcd is probed} */
    public Duration getProbeInterval() {
      return probeInterval;
    }

    /**
     * Sets how often etcd is probed.
     *
     * @param probeInterval the interval, positive
     */
    public void setProbeInterval(Duration probeInterval) {
      this.probeInterval = probeInterval;
    }
  }

  /**
   * {@code chash.membership.kubernetes.*}: {@code KubernetesSource.service}'s parameters and its
   * {@code NodeTemplate}'s.
   */
  public static class Kubernetes {
    /** The Service's namespace; unset, the Kubernetes client's (in a pod: the pod's namespace). */
    private String namespace;

    /**
     * The Service's name: its EndpointSlices are those labelled kubernetes.io/service-name=name.
     */
    private String service;

    /** The node type each ready endpoint becomes, e.g. redis or memcached; local for demos. */
    private String nodeType;

    /**
     * The node URI template, e.g. redis://{address}:{port}; placeholders {address}, {port},
     * {hostname}, {id}. Unset for local nodes.
     */
    private String uri;

    /** The name of the Service's port that {port} stands for; unset, the slice's first port. */
    private String portName;

    /** How often the informer's watch is checked, to tell whether the API server is reachable. */
    private Duration probeInterval = Duration.ofSeconds(1);

    /** Creates the defaults. */
    public Kubernetes() {}

    /** {@return the Service's namespace, or null for the client's} */
    public String getNamespace() {
      return namespace;
    }

    /**
     * Sets the Service's namespace.
     *
     * @param namespace the namespace
     */
    public void setNamespace(String namespace) {
      this.namespace = namespace;
    }

    /** {@return the Service's name} */
    public String getService() {
      return service;
    }

    /**
     * Sets the Service's name.
     *
     * @param service the name
     */
    public void setService(String service) {
      this.service = service;
    }

    /** {@return the node type} */
    public String getNodeType() {
      return nodeType;
    }

    /**
     * Sets the node type.
     *
     * @param nodeType the type's name, e.g. {@code redis}
     */
    public void setNodeType(String nodeType) {
      this.nodeType = nodeType;
    }

    /** {@return the URI template, or null for local nodes} */
    public String getUri() {
      return uri;
    }

    /**
     * Sets the URI template.
     *
     * @param uri the template, e.g. {@code redis://{address}:{port}}
     */
    public void setUri(String uri) {
      this.uri = uri;
    }

    /** {@return the port's name, or null for the first port} */
    public String getPortName() {
      return portName;
    }

    /**
     * Sets the port's name.
     *
     * @param portName the name of the Service's port
     */
    public void setPortName(String portName) {
      this.portName = portName;
    }

    /** {@return how often the watch is checked} */
    public Duration getProbeInterval() {
      return probeInterval;
    }

    /**
     * Sets how often the watch is checked.
     *
     * @param probeInterval the interval, positive
     */
    public void setProbeInterval(Duration probeInterval) {
      this.probeInterval = probeInterval;
    }
  }
}
