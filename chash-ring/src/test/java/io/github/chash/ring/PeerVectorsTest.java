package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.PeerVectors.Case;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * chash against the reference vectors of the real peers (see {@link PeerVectors}; regenerate them
 * with {@code benchmarks/compat/generate-vectors.sh}): every case's 100,000 keys land on the node
 * the peer chose, checked by the placements' SHA-256 and the readable samples.
 */
class PeerVectorsTest {
  /** Each file and the least cases it must hold, so that a truncated file cannot pass. */
  private static final String[][] FILES = {
    {"jedis-3.10.0.vectors", "14"},
    {"jedis-4.4.8.vectors", "5"},
    {"jedis-5.2.0.vectors", "5"},
    {"spymemcached-2.12.3.vectors", "15"},
    {"twemproxy-0.5.0.vectors", "14"},
    {"libketama.vectors", "10"},
  };

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> all = new ArrayList<>();
    for (String[] file : FILES) {
      List<Case> cases;
      try (InputStream in = PeerVectorsTest.class.getResourceAsStream("peers/" + file[0])) {
        assertThat(in).as(file[0]).isNotNull();
        cases = PeerVectors.read(in);
      }
      assertThat(cases).as(file[0]).hasSizeGreaterThanOrEqualTo(Integer.parseInt(file[1]));
      for (Case c : cases) {
        all.add(Arguments.of(file[0].replace(".vectors", "") + " " + c.name(), c));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void locate_placesEveryKeyAsThePeer(String name, Case c) {
    Ring ring = c.ring();
    c.samples()
        .forEach(
            (key, position) ->
                assertThat(ring.locate(key).id())
                    .as("%s: key %s", name, key)
                    .isEqualTo(c.nodes().get(position).id()));
    assertThat(c.keys()).isEqualTo(PeerVectors.KEYS);
    assertThat(PeerVectors.digest(c.placements(ring))).as(name).isEqualTo(c.sha256());
  }
}
