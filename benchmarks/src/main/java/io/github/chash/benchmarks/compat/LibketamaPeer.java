package io.github.chash.benchmarks.compat;

import io.github.chash.ring.PeerVectors;
import io.github.chash.ring.PeerVectors.Case;
import io.github.chash.ring.PeerVectors.VectorNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * libketama itself: {@code ketama.c} and {@code md5.c} of RJ/ketama (given as a folder), compiled
 * with gcc together with {@code compat/libketama-driver.c}, which {@code ketama_roll}s a server
 * file ({@code host:port<TAB>weight}) and prints {@code ketama_get_server} of every key.
 */
final class LibketamaPeer implements Peer {
  private final Path dir;
  private final Path driver;

  LibketamaPeer(Path source) throws Exception {
    dir = Files.createTempDirectory("chash-libketama-");
    Path driverSource = dir.resolve("libketama-driver.c");
    try (InputStream in = LibketamaPeer.class.getResourceAsStream("/compat/libketama-driver.c")) {
      Files.write(driverSource, in.readAllBytes());
    }
    driver = dir.resolve("libketama-driver");
    run(
        new ProcessBuilder(
            "gcc",
            "-O2",
            "-I",
            source.toString(),
            "-o",
            driver.toString(),
            driverSource.toString(),
            source.resolve("ketama.c").toString(),
            source.resolve("md5.c").toString(),
            "-lm"));
  }

  @Override
  public String file() {
    return "libketama.vectors";
  }

  @Override
  public List<String> header() {
    return List.of(
        "libketama (RJ/ketama, commit 18cf9a7, libketama/ketama.c and md5.c) compiled with gcc:"
            + " ketama_roll over a server file, ketama_get_server per key;",
        "the server file lists each node as host:port<TAB>weight (libketama's memory column).");
  }

  @Override
  public List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (boolean equal : new boolean[] {true, false}) {
      // libketama's formula differs from twemproxy's for 35 unequal nodes and gives 61 equal ones
      // 39 digests
      int[] counts = Arrays.copyOf(Cases.COUNTS, Cases.COUNTS.length + 1);
      counts[counts.length - 1] = equal ? 61 : 35;
      for (int n : counts) {
        List<VectorNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          int weight = equal ? 1 : Cases.unequalWeight(i, n);
          nodes.add(new VectorNode("10.0.1." + (i + 1) + ":11211", weight, null));
        }
        cases.add(
            Case.of(
                Cases.label("", false, equal, n),
                "algorithm=ketama compat=libketama",
                false,
                nodes));
      }
    }
    return cases;
  }

  @Override
  public int[] place(Case c) throws Exception {
    Path servers = dir.resolve("servers-" + c.name());
    StringBuilder s = new StringBuilder();
    Map<String, Integer> positions = new HashMap<>();
    for (int i = 0; i < c.nodes().size(); i++) {
      VectorNode n = c.nodes().get(i);
      // the server file's memory column is parsed up to its last character, a line break
      s.append(n.id()).append('\t').append(n.weight() * 100).append('\n');
      positions.put(n.id(), i);
    }
    Files.writeString(servers, s);
    Path keys = dir.resolve("keys-" + c.name());
    StringBuilder k = new StringBuilder();
    for (int i = 0; i < c.keys(); i++) {
      k.append(PeerVectors.key(i, c.tagged())).append('\n');
    }
    Files.writeString(keys, k, StandardCharsets.UTF_8);
    Path located = dir.resolve("located-" + c.name());
    run(
        new ProcessBuilder(driver.toString(), servers.toString())
            .redirectInput(keys.toFile())
            .redirectOutput(located.toFile()));
    List<String> lines = Files.readAllLines(located, StandardCharsets.UTF_8);
    int[] owners = new int[c.keys()];
    for (int i = 0; i < owners.length; i++) {
      owners[i] = positions.get(lines.get(i));
    }
    return owners;
  }

  @Override
  public Map<String, Before> before(Case c) {
    return Cases.ketamaBefore(c);
  }

  private void run(ProcessBuilder pb) throws IOException, InterruptedException {
    Path errors = dir.resolve("errors.txt");
    Process p = pb.redirectError(errors.toFile()).start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(
          String.join(" ", pb.command()) + " failed: " + Files.readString(errors));
    }
  }

  @Override
  public void close() throws IOException {
    try (var files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
