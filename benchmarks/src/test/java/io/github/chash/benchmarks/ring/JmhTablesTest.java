package io.github.chash.benchmarks.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhTablesTest {
  private static final String HEADER =
      "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\",\"Unit\","
          + "\"Param: nodes\"\n";
  private static final String PREFIX = "\"io.github.chash.benchmarks.ring.RingLookupBenchmark.";

  @Test
  void lookupTargets_marksEachRatioMetOrMissed(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("lookup.csv");
    Files.writeString(
        csv,
        HEADER
            + PREFIX
            + "chashRing\",\"avgt\",1,5,30.0,1.5,\"ns/op\",1000\n"
            + PREFIX
            + "spymemcachedKetama\",\"avgt\",1,5,600.0,10.0,\"ns/op\",1000\n"
            + PREFIX
            + "hash4jJumpBackHash\",\"avgt\",1,5,10.0,NaN,\"ns/op\",1000\n");
    List<JmhTables.Score> scores = JmhTables.read(csv);
    assertThat(scores)
        .extracting(JmhTables.Score::method)
        .containsExactly("chashRing", "spymemcachedKetama", "hash4jJumpBackHash");

    StringBuilder out = new StringBuilder();
    JmhTables.lookupTargets(out, scores);
    assertThat(out.toString())
        .contains("| chashRing / spymemcachedKetama at 1000 nodes <= 0.1x | 0.050 | met |")
        .contains("| chashRing / hash4jJumpBackHash at 1000 nodes <= 2.0x | 3.000 | **missed** |")
        .contains("| chashRing / hash4jJumpBackHash at 10 nodes <= 2.0x | - | not measured |");
  }
}
