package io.github.chash.ring;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reference vectors from real peers (Jedis, spymemcached, twemproxy, libketama), hash4j style: per
 * case the nodes as the peer was given them, the key count, a SHA-256 of the placements and a few
 * readable sample lines. Written by {@code benchmarks/compat/generate-vectors.sh} from the peers
 * themselves, read by {@code PeerVectorsTest} without them. Shared through this module's test-jar.
 *
 * <p>File format, UTF-8, one record a line, fields separated by tabs; {@code #} starts a comment:
 *
 * <pre>
 * case    NAME    algorithm=ketama compat=twemproxy    keys=100000    style=plain
 * node    ID      WEIGHT    NAME-or--      (one line per node, in the peer's list order)
 * sha256  HEX     (of the owners' list positions, one 4-byte big-endian int per key)
 * sample  KEY     POSITION      (the first keys)
 * </pre>
 */
public final class PeerVectors {
  /** Keys of every case: this many, unless a case says otherwise. */
  public static final int KEYS = 100_000;

  /** Sample lines per case. */
  static final int SAMPLES = 4;

  private PeerVectors() {}

  /**
   * A node as the peer was given it.
   *
   * @param id the chash node id
   * @param weight its weight
   * @param name its name, or null
   */
  public record VectorNode(String id, int weight, String name) {
    /** The chash node. */
    public Node toNode() {
      return name == null ? Node.of(id, weight) : Node.of(id, weight, name);
    }
  }

  /**
   * One case.
   *
   * @param name what it covers, e.g. {@code unnamed-equal-25}
   * @param settings the chash ring settings as {@code key=value} words ({@code algorithm}, {@code
   *     compat}, {@code keyTags})
   * @param keys how many keys ({@link #key} 0 .. keys-1)
   * @param tagged whether the keys carry {@code {tags}} ({@link #key})
   * @param nodes the nodes in the peer's order
   * @param sha256 the placements' digest (see the class comment), or null before it is known
   * @param samples the first keys and their owners' positions
   */
  public record Case(
      String name,
      String settings,
      int keys,
      boolean tagged,
      List<VectorNode> nodes,
      String sha256,
      Map<String, Integer> samples) {

    /** A case without placements yet. */
    public static Case of(String name, String settings, boolean tagged, List<VectorNode> nodes) {
      return new Case(name, settings, KEYS, tagged, List.copyOf(nodes), null, Map.of());
    }

    /** This case with the peer's placements: the owner's position in {@link #nodes} per key. */
    public Case withPlacements(int[] owners) {
      Map<String, Integer> samples = new LinkedHashMap<>();
      for (int i = 0; i < Math.min(SAMPLES, owners.length); i++) {
        samples.put(key(i, tagged), owners[i]);
      }
      return new Case(name, settings, keys, tagged, nodes, digest(owners), samples);
    }

    /** The chash ring of these settings and nodes. */
    public Ring ring() {
      return Rings.create(ringSettings(settings), nodes.stream().map(VectorNode::toNode).toList());
    }

    /** The chash ring's placements, as positions in {@link #nodes}. */
    public int[] chashPlacements() {
      return placements(ring());
    }

    /** A ring's placements of this case's keys, as positions in {@link #nodes}. */
    public int[] placements(Ring ring) {
      Map<String, Integer> position = new LinkedHashMap<>();
      for (int i = 0; i < nodes.size(); i++) {
        position.put(nodes.get(i).id(), i);
      }
      int[] owners = new int[keys];
      for (int i = 0; i < keys; i++) {
        owners[i] = position.get(ring.locate(key(i, tagged)).id());
      }
      return owners;
    }
  }

  /**
   * Key {@code i} of a case: {@code user:i}; every tenth {@code ключ:i:é} (multi-byte UTF-8);
   * tagged keys {@code user:{i % 5000}:i}, so that 20 keys share each tag.
   */
  public static String key(int i, boolean tagged) {
    if (tagged) {
      return "user:{" + (i % 5000) + "}:" + i;
    }
    return i % 10 == 0 ? "ключ:" + i + ":é" : "user:" + i;
  }

  /** Ring settings from {@code algorithm=... compat=... keyTags=...} words. */
  public static RingSettings ringSettings(String words) {
    RingSettings.Builder b = RingSettings.builder();
    for (String word : words.trim().split(" +")) {
      int eq = word.indexOf('=');
      String key = word.substring(0, eq);
      String value = word.substring(eq + 1);
      switch (key) {
        case "algorithm" -> b.algorithm(Algorithm.fromConfigName(value));
        case "compat" -> b.compat(KetamaCompat.fromConfigName(value));
        case "keyTags" -> b.keyTags(Boolean.parseBoolean(value));
        case "hash" -> b.hash(value);
        default -> throw new IllegalArgumentException("unknown setting " + word);
      }
    }
    return b.build();
  }

  /** SHA-256 of the owners' positions, one 4-byte big-endian int per key, in hex. */
  public static String digest(int[] owners) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
    for (int owner : owners) {
      sha.update(new byte[] {(byte) (owner >>> 24), (byte) (owner >>> 16), (byte) (owner >>> 8)});
      sha.update((byte) owner);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  /** How many keys two placements put on different nodes. */
  public static int differences(int[] a, int[] b) {
    int d = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        d++;
      }
    }
    return d;
  }

  /** Writes a vectors file: the header lines as comments, then the cases. */
  public static void write(Writer out, List<String> header, List<Case> cases) throws IOException {
    for (String line : header) {
      out.write("# " + line + "\n");
    }
    for (Case c : cases) {
      out.write("\n");
      out.write(
          String.join(
                  "\t",
                  "case",
                  c.name(),
                  c.settings(),
                  "keys=" + c.keys(),
                  "style=" + (c.tagged() ? "tagged" : "plain"))
              + "\n");
      for (VectorNode n : c.nodes()) {
        out.write(
            String.join(
                    "\t",
                    "node",
                    n.id(),
                    String.valueOf(n.weight()),
                    n.name() == null ? "-" : n.name())
                + "\n");
      }
      out.write("sha256\t" + c.sha256() + "\n");
      for (Map.Entry<String, Integer> s : c.samples().entrySet()) {
        out.write("sample\t" + s.getKey() + "\t" + s.getValue() + "\n");
      }
    }
  }

  /** Reads a vectors file. */
  public static List<Case> read(InputStream in) {
    List<Case> cases = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String[] head = null;
      List<VectorNode> nodes = new ArrayList<>();
      String sha = null;
      Map<String, Integer> samples = new LinkedHashMap<>();
      for (String line = r.readLine(); ; line = r.readLine()) {
        if (line == null || line.startsWith("case\t")) {
          if (head != null) {
            cases.add(
                new Case(
                    head[1],
                    head[2],
                    Integer.parseInt(head[3].substring("keys=".length())),
                    head[4].equals("style=tagged"),
                    List.copyOf(nodes),
                    sha,
                    Map.copyOf(samples)));
          }
          if (line == null) {
            return cases;
          }
          head = line.split("\t");
          nodes.clear();
          samples.clear();
          sha = null;
          continue;
        }
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        switch (f[0]) {
          case "node" ->
              nodes.add(
                  new VectorNode(f[1], Integer.parseInt(f[2]), f[3].equals("-") ? null : f[3]));
          case "sha256" -> sha = f[1];
          case "sample" -> samples.put(f[1], Integer.parseInt(f[2]));
          default -> throw new IllegalArgumentException("unknown vectors line: " + line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
