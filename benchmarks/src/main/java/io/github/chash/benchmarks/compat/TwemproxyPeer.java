package io.github.chash.benchmarks.compat;

import io.github.chash.ring.PeerVectors;
import io.github.chash.ring.PeerVectors.Case;
import io.github.chash.ring.PeerVectors.VectorNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Debian's twemproxy (nutcracker 0.5.0, {@code apt-get install nutcracker}) run as a real process
 * with {@code distribution: ketama}, {@code hash: md5}, {@code redis: true}, in front of real
 * {@code redis-server} backends: every key is SET through it and found again by SCANning the
 * backends. Backends listen on free 127.0.0.1 ports; the port-11211 cases put them on 127.0.0.2,
 * 127.0.0.3, ... port 11211 (loopback addresses too), each checked free first. Every process is
 * stopped at the end.
 */
final class TwemproxyPeer implements Peer {
  private static final int BATCH = 2000;

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();

  /** Backends on 127.0.0.1: "127.0.0.1:port". */
  private final List<String> backends = new ArrayList<>();

  /** Backends on 127.0.0.k:11211. */
  private final List<String> defaultPortBackends = new ArrayList<>();

  TwemproxyPeer() throws Exception {
    dir = Files.createTempDirectory("chash-twemproxy-");
    for (int i = 0; i < 50; i++) {
      backends.add(startRedis("127.0.0.1", freePort()));
    }
    for (int k = 2; defaultPortBackends.size() < 8 && k < 40; k++) {
      String host = "127.0.0." + k;
      if (isFree(host, 11211)) {
        defaultPortBackends.add(startRedis(host, 11211));
      }
    }
  }

  @Override
  public String file() {
    return "twemproxy-0.5.0.vectors";
  }

  @Override
  public List<String> header() {
    return List.of(
        "twemproxy (nutcracker) 0.5.0+dfsg-2 from Debian, run as a process: distribution ketama,"
            + " hash md5, redis true, auto_eject_hosts false,",
        "in front of redis-server backends; each key SET through it, its backend read back by"
            + " SCAN. servers: entries are host:port:weight [name];",
        "a node's id is host:port (the backend), its name the name after the weight; port-11211"
            + " backends are 127.0.0.k:11211.");
  }

  @Override
  public List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    String s = "algorithm=ketama compat=twemproxy";
    for (int n : Cases.COUNTS) {
      cases.add(Case.of(Cases.label("", false, true, n), s, false, nodes(n, false, true)));
    }
    for (int n : Cases.COUNTS) {
      cases.add(Case.of(Cases.label("", false, false, n), s, false, nodes(n, false, false)));
    }
    for (int n : new int[] {8, 25}) {
      cases.add(Case.of(Cases.label("", true, true, n), s, false, nodes(n, true, true)));
      cases.add(Case.of(Cases.label("", true, false, n), s, false, nodes(n, true, false)));
    }
    for (int n : new int[] {3, 8}) {
      if (defaultPortBackends.size() >= n) {
        List<VectorNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          nodes.add(new VectorNode(defaultPortBackends.get(i), 1, null));
        }
        cases.add(Case.of("port11211-unnamed-equal-" + n, s, false, nodes));
      }
    }
    return cases;
  }

  private List<VectorNode> nodes(int n, boolean named, boolean equal) {
    List<VectorNode> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int weight = equal ? 1 : Cases.unequalWeight(i, n);
      nodes.add(new VectorNode(backends.get(i), weight, named ? "server-" + i : null));
    }
    return nodes;
  }

  @Override
  public int[] place(Case c) throws Exception {
    int listen = freePort();
    int stats = freePort();
    StringBuilder conf =
        new StringBuilder()
            .append("pool:\n")
            .append("  listen: 127.0.0.1:")
            .append(listen)
            .append("\n  hash: md5\n  distribution: ketama\n  redis: true\n")
            .append("  auto_eject_hosts: false\n  timeout: 10000\n  servers:\n");
    for (VectorNode n : c.nodes()) {
      conf.append("   - ").append(n.id()).append(':').append(n.weight());
      if (n.name() != null) {
        conf.append(' ').append(n.name());
      }
      conf.append('\n');
    }
    Path file = dir.resolve("nutcracker-" + c.name() + ".yml");
    Files.writeString(file, conf);
    Process proxy =
        new ProcessBuilder(
                "nutcracker",
                "-c",
                file.toString(),
                "-s",
                String.valueOf(stats),
                "-a",
                "127.0.0.1",
                "-o",
                dir.resolve("nutcracker-" + c.name() + ".log").toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("nutcracker-" + c.name() + ".out").toFile())
            .start();
    processes.add(proxy);
    try {
      awaitListening("127.0.0.1", listen, proxy);
      for (VectorNode n : c.nodes()) {
        call(n.id(), "FLUSHALL");
      }
      try (Resp resp = new Resp("127.0.0.1", listen)) {
        List<String[]> batch = new ArrayList<>();
        for (int i = 0; i < c.keys(); i++) {
          batch.add(new String[] {"SET", PeerVectors.key(i, c.tagged()), "1"});
          if (batch.size() == BATCH || i == c.keys() - 1) {
            for (Object reply : resp.pipeline(batch)) {
              if (!"OK".equals(reply)) {
                throw new IOException("twemproxy answered " + reply);
              }
            }
            batch.clear();
          }
        }
      }
      Map<String, Integer> owner = new HashMap<>();
      for (int b = 0; b < c.nodes().size(); b++) {
        for (String key : scan(c.nodes().get(b).id())) {
          if (owner.put(key, b) != null) {
            throw new IllegalStateException("key " + key + " on two backends");
          }
        }
      }
      int[] owners = new int[c.keys()];
      for (int i = 0; i < owners.length; i++) {
        Integer b = owner.get(PeerVectors.key(i, c.tagged()));
        if (b == null) {
          throw new IllegalStateException(
              "key " + PeerVectors.key(i, c.tagged()) + " on no backend");
        }
        owners[i] = b;
      }
      return owners;
    } finally {
      stop(proxy);
    }
  }

  private static List<String> scan(String backend) throws IOException {
    List<String> keys = new ArrayList<>();
    try (Resp resp = connect(backend)) {
      String cursor = "0";
      do {
        List<?> reply = (List<?>) resp.call("SCAN", cursor, "COUNT", "1000");
        cursor = (String) reply.get(0);
        for (Object key : (List<?>) reply.get(1)) {
          keys.add((String) key);
        }
      } while (!cursor.equals("0"));
    }
    return keys;
  }

  private static Object call(String backend, String... command) throws IOException {
    try (Resp resp = connect(backend)) {
      return resp.call(command);
    }
  }

  private static Resp connect(String backend) throws IOException {
    int colon = backend.lastIndexOf(':');
    return new Resp(backend.substring(0, colon), Integer.parseInt(backend.substring(colon + 1)));
  }

  @Override
  public Map<String, Before> before(Case c) {
    return Cases.ketamaBefore(c);
  }

  private String startRedis(String host, int port) throws Exception {
    Process p =
        new ProcessBuilder(
                "redis-server",
                "--bind",
                host,
                "--port",
                String.valueOf(port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--protected-mode",
                "no")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis-" + host + "-" + port + ".log").toFile())
            .start();
    processes.add(p);
    awaitListening(host, port, p);
    return host + ":" + port;
  }

  private static void awaitListening(String host, int port, Process p) throws Exception {
    for (int attempt = 0; attempt < 200; attempt++) {
      if (!p.isAlive()) {
        throw new IllegalStateException(
            "process for " + host + ":" + port + " exited with " + p.exitValue());
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 200);
        return;
      } catch (IOException notYet) {
        Thread.sleep(25);
      }
    }
    throw new IllegalStateException(host + ":" + port + " did not come up");
  }

  private static int freePort() throws IOException {
    for (int attempt = 0; attempt < 20; attempt++) {
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
        int port = s.getLocalPort();
        if (port != 6379 && port != 11211) {
          return port;
        }
      }
    }
    throw new IOException("no free port");
  }

  private static boolean isFree(String host, int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(host))) {
      return s.isBound();
    } catch (IOException taken) {
      return false;
    }
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      for (Process p : processes) {
        stop(p);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      processes.forEach(Process::destroyForcibly);
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
