package io.github.chash.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.MembershipListener;
import io.github.chash.membership.MembershipSource;
import io.github.chash.membership.RingUpdate;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The ring a Kubernetes Service's EndpointSlices make: each ready endpoint of the slices labelled
 * {@code kubernetes.io/service-name=<service>} in a namespace is one node, made by a {@link
 * NodeTemplate} (its type, and its URI from the endpoint's address and the slice's port).
 *
 * <ul>
 *   <li><b>Which endpoints.</b> Those whose {@code ready} condition is true or unset (unset is
 *       unknown, which Kubernetes asks consumers to take as ready) and that are not {@code
 *       terminating}. A terminating endpoint leaves the ring even while it still serves: a pod
 *       being shut down is drained ahead of its end, not when it is gone.
 *   <li><b>Which id.</b> The endpoint's {@code targetRef} name (the pod's name), else its {@code
 *       hostname}, else its first address. An id seen twice (an endpoint may be in two slices for a
 *       moment) is one node. The nodes are sorted by id, so every JVM that sees the same endpoints
 *       builds the same list.
 *   <li><b>The epoch</b> is a counter of this source, moved by one each time the node list it
 *       computes changes (and when it becomes, or stops being, "no ready endpoints"); a repeat of
 *       the same list (a resync, an update of a slice that changes no node, a reconnection) keeps
 *       it. Kubernetes has no revision for "the slices of a Service": a {@code resourceVersion}
 *       belongs to one object and is not to be compared with another's. So the epoch only orders
 *       the states <em>this</em> JVM saw; two JVMs' epochs are not comparable (one started later
 *       counts from 1). Compare JVMs by the revision, {@code nodes 3, sha256 3fa1c2d0e5b7a901}: a
 *       hash of the sorted node list (ids, types and URIs), the same in every JVM that runs the
 *       same nodes.
 *   <li><b>No ready endpoint</b> (all pods gone, or none ready yet) is not a ring: it is reported
 *       as {@link MembershipListener#invalid}, and the running ring stays.
 * </ul>
 *
 * <p>Watched through a fabric8 {@code SharedIndexInformer} (a list, then a watch, re-listed when
 * the watch's resource version is too old), which reconnects by itself. Every {@code probeInterval}
 * the source asks the informer whether its watch is up: when it is not, the source is reported
 * unreachable (the running ring stays); when it is again, the source reports itself connected and
 * delivers the state it then holds.
 *
 * <p>The client needs {@code get}, {@code list} and {@code watch} on {@code
 * discovery.k8s.io/endpointslices} in the namespace (a Role and a RoleBinding for the pod's service
 * account).
 */
public final class KubernetesSource implements MembershipSource {
  /** The label Kubernetes puts on each EndpointSlice of a Service: the Service's name. */
  public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  /** How often the informer's watch is checked when no interval is given. */
  public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(1);

  private static final System.Logger LOG = System.getLogger(KubernetesSource.class.getName());

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final String namespace;
  private final String service;
  private final NodeTemplate template;
  private final Duration probeInterval;
  private final ScheduledExecutorService worker;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean readPending = new AtomicBoolean();

  private volatile MembershipListener listener;
  private volatile SharedIndexInformer<EndpointSlice> informer;

  /** The last error the informer told of, for the unreachable reason. */
  private volatile String lastError;

  /** The following are touched on the worker thread only. */
  private boolean reachable;

  private long epoch;

  /** The last state delivered: the revision of a node list, or a problem; null before any. */
  private String delivered;

  private KubernetesSource(
      KubernetesClient client,
      boolean ownsClient,
      String namespace,
      String service,
      NodeTemplate template,
      Duration probeInterval) {
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.service = Objects.requireNonNull(service, "service");
    this.template = Objects.requireNonNull(template, "template");
    if (probeInterval.isZero() || probeInterval.isNegative()) {
      throw new IllegalArgumentException("probeInterval must be positive, was " + probeInterval);
    }
    this.probeInterval = probeInterval;
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "chash-kubernetes-source");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * {@return a source of the ready endpoints of one Service, on a client the application runs (and
   * closes); its watch is checked every second}
   *
   * @param client a fabric8 client
   * @param namespace the Service's namespace
   * @param service the Service's name
   * @param template what each ready endpoint becomes
   */
  public static KubernetesSource service(
      KubernetesClient client, String namespace, String service, NodeTemplate template) {
    return service(client, namespace, service, template, DEFAULT_PROBE_INTERVAL);
  }

  /**
   * {@return a source of the ready endpoints of one Service, on a client the application runs (and
   * closes)}
   *
   * @param client a fabric8 client
   * @param namespace the Service's namespace
   * @param service the Service's name
   * @param template what each ready endpoint becomes
   * @param probeInterval how often the informer's watch is checked, to tell whether the API server
   *     is reachable
   */
  public static KubernetesSource service(
      KubernetesClient client,
      String namespace,
      String service,
      NodeTemplate template,
      Duration probeInterval) {
    return new KubernetesSource(client, false, namespace, service, template, probeInterval);
  }

  /**
   * {@return a source with a client of its own, closed with it, configured as fabric8 finds it (in
   * a pod: its service account; elsewhere: {@code ~/.kube/config})}
   *
   * @param namespace the Service's namespace
   * @param service the Service's name
   * @param template what each ready endpoint becomes
   */
  public static KubernetesSource connect(String namespace, String service, NodeTemplate template) {
    KubernetesClient client = new KubernetesClientBuilder().build();
    return new KubernetesSource(client, true, namespace, service, template, DEFAULT_PROBE_INTERVAL);
  }

  @Override
  public String describe() {
    return "kubernetes " + namespace + "/" + service + " endpointslices";
  }

  @Override
  public void start(MembershipListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the source " + describe() + " was started already");
    }
    this.listener = listener;
    SharedIndexInformer<EndpointSlice> slices =
        client
            .discovery()
            .v1()
            .endpointSlices()
            .inNamespace(namespace)
            .withLabel(SERVICE_NAME_LABEL, service)
            .runnableInformer(0);
    slices.addEventHandler(
        new ResourceEventHandler<EndpointSlice>() {
          @Override
          public void onAdd(EndpointSlice slice) {
            requestRead();
          }

          @Override
          public void onUpdate(EndpointSlice before, EndpointSlice now) {
            requestRead();
          }

          @Override
          public void onDelete(EndpointSlice slice, boolean finalStateUnknown) {
            requestRead();
          }

          @Override
          public void onList(String resourceVersion, boolean initial) {
            requestRead(); // a list that found no slice tells nothing else
          }
        });
    // retried for ever, with the informer's backoff: an API server that is down now may be back
    slices.exceptionHandler(
        (isStarted, t) -> {
          lastError = String.valueOf(t.getMessage() == null ? t : t.getMessage());
          submit(this::probe);
          return true;
        });
    informer = slices;
    slices.start();
    long every = probeInterval.toNanos();
    worker.scheduleWithFixedDelay(this::probe, 0, every, TimeUnit.NANOSECONDS);
  }

  private void submit(Runnable task) {
    try {
      worker.execute(task);
    } catch (RejectedExecutionException closed) {
      // closed: nothing more to tell
    }
  }

  /** Reads the informer's store on the worker; requests while one is pending are one read. */
  private void requestRead() {
    if (readPending.compareAndSet(false, true)) {
      try {
        worker.execute(this::read);
      } catch (RejectedExecutionException closed) {
        readPending.set(false);
      }
    }
  }

  /** Tells the listener when the informer's watch went down or came up. */
  private void probe() {
    SharedIndexInformer<EndpointSlice> slices = informer;
    if (slices == null) {
      return;
    }
    boolean up = slices.isWatching();
    if (up && !reachable && slices.hasSynced()) {
      reachable = true;
      listener.connected();
      read();
    } else if (!up && reachable) {
      reachable = false;
      String error = lastError;
      listener.unreachable(
          "the watch of "
              + describe()
              + " is down"
              + (error == null ? "; reconnecting" : " (" + error + "); reconnecting"));
    } else if (!up && delivered == null && lastError != null) {
      // never reached: tell it once, as soon as the first list fails
      listener.unreachable("cannot list " + describe() + " (" + lastError + "); retrying");
      lastError = null;
    }
  }

  private void read() {
    readPending.set(false);
    SharedIndexInformer<EndpointSlice> slices = informer;
    if (slices == null || !slices.hasSynced() || !reachable) {
      return; // the first list is not in yet, or the watch is down: the probe reads when it is up
    }
    List<NodeConfig> nodes;
    try {
      nodes = nodes(slices.getStore().list(), template);
    } catch (IllegalArgumentException e) {
      deliverProblem(e.getMessage());
      return;
    }
    if (nodes.isEmpty()) {
      deliverProblem(
          "no ready endpoints in the EndpointSlices of service "
              + namespace
              + "/"
              + service
              + " (label "
              + SERVICE_NAME_LABEL
              + "="
              + service
              + ")");
      return;
    }
    String revision = revision(nodes);
    if (!revision.equals(delivered)) {
      epoch++;
      delivered = revision;
    }
    listener.update(RingUpdate.ofNodes(epoch, revision, nodes));
  }

  private void deliverProblem(String problem) {
    if (!problem.equals(delivered)) {
      epoch++;
      delivered = problem;
      LOG.log(Level.DEBUG, "{0}: epoch {1}: {2}", describe(), String.valueOf(epoch), problem);
    }
    listener.invalid(epoch, problem);
  }

  /**
   * {@return the nodes the slices' ready, not terminating endpoints make, sorted by id, one per id}
   *
   * @throws IllegalArgumentException if an endpoint makes a node that breaks a rule of {@code
   *     nodes:} entries
   */
  static List<NodeConfig> nodes(List<EndpointSlice> slices, NodeTemplate template) {
    TreeMap<String, NodeConfig> byId = new TreeMap<>();
    List<EndpointSlice> ordered = new ArrayList<>(slices);
    ordered.sort(Comparator.comparing(s -> String.valueOf(s.getMetadata().getName())));
    for (EndpointSlice slice : ordered) {
      Integer port = port(slice, template.portName());
      if (port == null && template.needsPort()) {
        continue; // a slice without the port (yet): its endpoints cannot be reached through it
      }
      List<Endpoint> endpoints = slice.getEndpoints() == null ? List.of() : slice.getEndpoints();
      for (Endpoint endpoint : endpoints) {
        if (!inRing(endpoint)
            || endpoint.getAddresses() == null
            || endpoint.getAddresses().isEmpty()) {
          continue;
        }
        String address = endpoint.getAddresses().get(0);
        String id = id(endpoint, address);
        NodeConfig node = template.node(id, address, port, endpoint.getHostname());
        byId.merge(
            id,
            node,
            (a, b) ->
                Comparator.nullsFirst(String::compareTo).compare(a.uri(), b.uri()) <= 0 ? a : b);
      }
    }
    return List.copyOf(byId.values());
  }

  /** Ready (or unknown, as Kubernetes asks consumers to take it) and not terminating. */
  static boolean inRing(Endpoint endpoint) {
    EndpointConditions conditions = endpoint.getConditions();
    if (conditions == null) {
      return true;
    }
    boolean ready = conditions.getReady() == null || conditions.getReady();
    boolean terminating = Boolean.TRUE.equals(conditions.getTerminating());
    return ready && !terminating;
  }

  private static String id(Endpoint endpoint, String address) {
    ObjectReference ref = endpoint.getTargetRef();
    if (ref != null && ref.getName() != null && !ref.getName().isBlank()) {
      return ref.getName();
    }
    if (endpoint.getHostname() != null && !endpoint.getHostname().isBlank()) {
      return endpoint.getHostname();
    }
    return address;
  }

  private static Integer port(EndpointSlice slice, String name) {
    List<EndpointPort> ports = slice.getPorts() == null ? List.of() : slice.getPorts();
    for (EndpointPort p : ports) {
      if (name == null || name.equals(p.getName())) {
        return p.getPort();
      }
    }
    return null;
  }

  /**
   * {@return {@code nodes N, sha256 <16 hex>}: the hash of the sorted nodes' ids, types and URIs,
   * the same in every JVM that computes the same nodes}
   */
  static String revision(List<NodeConfig> nodes) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    for (NodeConfig node : nodes) {
      String line = node.id() + "\t" + node.type().configName() + "\t" + node.uri() + "\n";
      sha.update(line.getBytes(StandardCharsets.UTF_8));
    }
    return "nodes "
        + nodes.size()
        + ", sha256 "
        + HexFormat.of().formatHex(sha.digest()).substring(0, 16);
  }

  @Override
  public void close() {
    worker.shutdownNow();
    SharedIndexInformer<EndpointSlice> slices = informer;
    if (slices != null) {
      try {
        slices.stop();
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "stopping the informer of " + describe(), e);
      }
    }
    if (ownsClient) {
      try {
        client.close();
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "closing the client of " + describe(), e);
      }
    }
  }
}
