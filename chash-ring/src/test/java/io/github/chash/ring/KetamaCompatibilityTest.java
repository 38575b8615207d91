package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code ketama} against spymemcached's published vectors and against spymemcached itself. */
class KetamaCompatibilityTest {
  private static final RingSettings KETAMA = RingSettings.of(Algorithm.KETAMA);

  private static Ring ketama(String... ids) {
    List<Node> nodes = new ArrayList<>();
    for (String id : ids) {
      nodes.add(Node.of(id));
    }
    return Rings.create(KETAMA, nodes);
  }

  /** spymemcached's KetamaNodeLocatorTest nodes: 127.0.0.1:10000 + i. */
  private static Ring spyTestRing(int n) {
    String[] ids = new String[n];
    for (int i = 0; i < n; i++) {
      ids[i] = "127.0.0.1:" + (10000 + i);
    }
    return ketama(ids);
  }

  @Test
  void locate_matchesSpymemcachedLookupVectors() {
    // KetamaNodeLocatorTest.testLookups and testClusterResizing
    Ring four = spyTestRing(4);
    assertThat(four.locate("dustin").id()).isEqualTo("127.0.0.1:10000");
    assertThat(four.locate("noelani").id()).isEqualTo("127.0.0.1:10002");
    assertThat(four.locate("some other key").id()).isEqualTo("127.0.0.1:10000");
    Ring five = spyTestRing(5);
    assertThat(five.locate("dustin").id()).isEqualTo("127.0.0.1:10000");
    assertThat(five.locate("noelani").id()).isEqualTo("127.0.0.1:10002");
    assertThat(five.locate("some other key").id()).isEqualTo("127.0.0.1:10004");
  }

  @Test
  void locate_matchesSpymemcachedLibKetamaCompatVectors() {
    // KetamaNodeLocatorTest.testLibKetamaCompat
    Ring five = spyTestRing(5);
    assertThat(five.locate("36").id()).isEqualTo("127.0.0.1:10002");
    assertThat(five.locate("10037").id()).isEqualTo("127.0.0.1:10003");
    assertThat(five.locate("22051").id()).isEqualTo("127.0.0.1:10001");
    assertThat(five.locate("49044").id()).isEqualTo("127.0.0.1:10004");
  }

  @Test
  void locate_pastTheLastPoint_wrapsToTheFirst() {
    // KetamaNodeLocatorTest.testContinuumWrapping: the largest point is 4294887009 and these keys
    // hash beyond it.
    Ring four = spyTestRing(4);
    assertThat(Integer.toUnsignedLong(((KetamaRing) four).maxPoint())).isEqualTo(4294887009L);
    for (String key : new String[] {"V5XS8C8N", "8KR2DKR2", "L9KH6X4X"}) {
      assertThat(four.locate(key).id()).isEqualTo("127.0.0.1:10003");
    }
  }

  @Test
  void locate_matchesLibKetamaCompatTwoVectors() {
    // KetamaNodeLocatorTest.testLibKetamaCompatTwo (libketama's own test table), first rows
    Ring ring =
        ketama(
            "10.0.1.1:11211",
            "10.0.1.2:11211",
            "10.0.1.3:11211",
            "10.0.1.4:11211",
            "10.0.1.5:11211",
            "10.0.1.6:11211",
            "10.0.1.7:11211",
            "10.0.1.8:11211");
    String[][] expected = {
      {"0", "10.0.1.1:11211"}, {"233", "10.0.1.7:11211"}, {"466", "10.0.1.3:11211"},
      {"699", "10.0.1.1:11211"}, {"932", "10.0.1.6:11211"}, {"1165", "10.0.1.2:11211"},
      {"1398", "10.0.1.1:11211"}, {"1631", "10.0.1.6:11211"}, {"1864", "10.0.1.5:11211"},
      {"2097", "10.0.1.3:11211"}, {"2330", "10.0.1.7:11211"}, {"2563", "10.0.1.3:11211"},
      {"2796", "10.0.1.6:11211"}, {"3029", "10.0.1.1:11211"}, {"3262", "10.0.1.2:11211"},
      {"3495", "10.0.1.3:11211"}, {"3728", "10.0.1.8:11211"}, {"3961", "10.0.1.4:11211"},
      {"4194", "10.0.1.4:11211"}, {"4427", "10.0.1.3:11211"}, {"4660", "10.0.1.4:11211"},
      {"4893", "10.0.1.7:11211"}, {"5126", "10.0.1.4:11211"}, {"5359", "10.0.1.2:11211"},
      {"5592", "10.0.1.2:11211"}, {"5825", "10.0.1.3:11211"}, {"6058", "10.0.1.2:11211"},
      {"6291", "10.0.1.7:11211"}, {"6524", "10.0.1.5:11211"}, {"6757", "10.0.1.5:11211"},
      {"6990", "10.0.1.1:11211"}, {"7223", "10.0.1.5:11211"}, {"7456", "10.0.1.4:11211"},
      {"7689", "10.0.1.2:11211"}, {"7922", "10.0.1.5:11211"}, {"8155", "10.0.1.5:11211"},
      {"28892", "10.0.1.7:11211"}, {"29125", "10.0.1.4:11211"}, {"42173", "10.0.1.8:11211"},
      {"42406", "10.0.1.3:11211"}, {"103685", "10.0.1.2:11211"}, {"126985", "10.0.1.7:11211"}
    };
    for (String[] row : expected) {
      assertThat(ring.locate(row[0]).id()).as("key %s", row[0]).isEqualTo(row[1]);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 8, 50})
  void locate_agreesWithSpymemcachedOnEveryKey(int nodeCount) throws Exception {
    List<Node> nodes = new ArrayList<>();
    List<MemcachedNode> spyNodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      InetSocketAddress address = address(i);
      nodes.add(Node.of(idOf(address)));
      spyNodes.add(AddressOnlyMemcachedNode.of(address, "MemcachedNode(" + address + ")"));
    }
    KetamaNodeLocator spy = new KetamaNodeLocator(spyNodes, DefaultHashAlgorithm.KETAMA_HASH);
    assertAgreement(Rings.create(KETAMA, nodes), spy);
  }

  @Test
  void locate_weighted_agreesWithSpymemcached() throws Exception {
    List<Node> nodes = new ArrayList<>();
    List<MemcachedNode> spyNodes = new ArrayList<>();
    Map<InetSocketAddress, Integer> weights = new HashMap<>();
    for (int i = 0; i < 8; i++) {
      InetSocketAddress address = address(i);
      int weight = 1 + i % 3 + (i == 7 ? 5 : 0);
      nodes.add(Node.of(idOf(address), weight));
      spyNodes.add(AddressOnlyMemcachedNode.of(address, "MemcachedNode(" + address + ")"));
      weights.put(address, weight);
    }
    KetamaNodeLocator spy =
        new KetamaNodeLocator(
            spyNodes,
            DefaultHashAlgorithm.KETAMA_HASH,
            KetamaNodeKeyFormatter.Format.SPYMEMCACHED,
            weights);
    assertAgreement(Rings.create(KETAMA, nodes), spy);
  }

  private static void assertAgreement(Ring ring, KetamaNodeLocator spy) {
    int disagreements = 0;
    String firstDisagreement = null;
    for (int i = 0; i < 100_000; i++) {
      String key = i % 10 == 0 ? "ключ:" + i + ":é" : "user:" + i;
      String expected = idOf((InetSocketAddress) spy.getPrimary(key).getSocketAddress());
      String actual = ring.locate(key).id();
      if (!expected.equals(actual)) {
        disagreements++;
        if (firstDisagreement == null) {
          firstDisagreement = key + ": spymemcached " + expected + ", chash " + actual;
        }
      }
    }
    assertThat(disagreements).as("first: %s", firstDisagreement).isZero();
  }

  private static InetSocketAddress address(int i) throws UnknownHostException {
    byte[] ip = {10, 0, (byte) (i / 250), (byte) (1 + i % 250)};
    return new InetSocketAddress(InetAddress.getByAddress(ip), 11211 + i % 3);
  }

  /** The chash id that names a node as spymemcached does: its address without a leading "/". */
  private static String idOf(InetSocketAddress address) {
    String s = String.valueOf(address);
    return s.startsWith("/") ? s.substring(1) : s;
  }
}
