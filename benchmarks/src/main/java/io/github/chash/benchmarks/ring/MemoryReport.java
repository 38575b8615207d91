package io.github.chash.benchmarks.ring;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.List;
import java.util.Locale;
import org.openjdk.jol.info.GraphLayout;

/**
 * Bytes per virtual point of chash's {@code ring} and {@code ketama} and of the seeds' {@code
 * TreeMap} ring, measured with JOL: the retained size of the whole structure minus the node objects
 * (chash {@link Node}s and their id strings, or the seed ring's server strings), divided by the
 * number of points. Prints a markdown table.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.github.chash.benchmarks.ring.MemoryReport}.
 */
public final class MemoryReport {
  /** Target of issue 2 for {@code ring}. */
  static final double RING_TARGET_BYTES_PER_POINT = 12.0;

  private static final int NODES = 1000;

  private MemoryReport() {}

  /** Prints the memory table for 1000 equal nodes. */
  public static void main(String[] args) {
    List<String> ids = BenchKeys.nodeIds(NODES);
    List<Node> nodes = Contender.nodes(ids);
    // parseInstance(Object...) takes each element as a root: the nodes (with their id strings) and
    // the id strings alone, without the array holding them.
    long nodeBytes = GraphLayout.parseInstance(nodes.toArray()).totalSize();
    long idBytes = GraphLayout.parseInstance(ids.toArray()).totalSize();

    StringBuilder out = new StringBuilder();
    out.append("| structure (").append(NODES).append(" nodes) | points | bytes | bytes/point |\n");
    out.append("|---|---:|---:|---:|\n");

    RingSettings ringSettings = Contender.settings(Algorithm.RING, "xxh3");
    Ring ring = Rings.create(ringSettings, nodes);
    double ringPerPoint =
        row(
            out,
            "chash ring (xxh3, " + ringSettings.pointsPerWeight() + " points/weight)",
            ring,
            (long) NODES * ringSettings.pointsPerWeight(),
            nodeBytes);

    RingSettings ketamaSettings = RingSettings.of(Algorithm.KETAMA);
    Ring ketama = Rings.create(ketamaSettings, nodes);
    row(
        out,
        "chash ketama (" + ketamaSettings.pointsPerWeight() + " points/node)",
        ketama,
        (long) NODES * ketamaSettings.pointsPerWeight(),
        nodeBytes);

    SeedTreeMapRing seed = new SeedTreeMapRing(ids);
    row(out, "seed TreeMap ring (160 virtual nodes)", seed.map(), seed.points(), idBytes);

    out.append('\n')
        .append(
            String.format(
                Locale.ROOT,
                "Target: chash ring <= %.0f bytes/point: %s (%.3f).%n",
                RING_TARGET_BYTES_PER_POINT,
                ringPerPoint <= RING_TARGET_BYTES_PER_POINT ? "met" : "missed",
                ringPerPoint));
    out.append(
        "Points counted as nodes x points per node (the seed ring: distinct map keys); "
            + "node objects and their ids are subtracted.\n");
    System.out.print(out);
  }

  private static double row(
      StringBuilder out, String name, Object structure, long points, long nodeBytes) {
    long bytes = GraphLayout.parseInstance(structure).totalSize() - nodeBytes;
    double perPoint = (double) bytes / points;
    out.append(
        String.format(Locale.ROOT, "| %s | %,d | %,d | %.3f |%n", name, points, bytes, perPoint));
    return perPoint;
  }
}
