package io.github.chash.benchmarks.ring;

import com.dynatrace.hash4j.consistent.ConsistentBucketHasher;
import com.dynatrace.hash4j.consistent.ConsistentHashing;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.dynatrace.hash4j.random.PseudoRandomGeneratorProvider;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.spy.memcached.KetamaNodeLocator;

/**
 * One algorithm under comparison: a name and a way to build a router over a list of node ids. Used
 * by the reports, which need every contender behind one shape; the JMH lookup benchmark calls each
 * library directly instead, so no adapter sits in the measured path.
 */
record Contender(String name, Function<List<String>, Router> factory) {

  /** Routes keys to node ids. */
  interface Router {
    /** The id of the node owning {@code key}. */
    String route(String key);

    /** Exact share of the key space per node id, or {@code null} if the algorithm has none. */
    default Map<String, Double> exactShares() {
      return null;
    }
  }

  Router build(List<String> ids) {
    return factory.apply(ids);
  }

  /** chash's five algorithms (default settings), the three peers and the seeds' TreeMap ring. */
  static List<Contender> all() {
    List<Contender> all = new ArrayList<>();
    all.add(chash("chash ring (xxh3)", settings(Algorithm.RING, "xxh3")));
    all.add(chash("chash ketama", RingSettings.of(Algorithm.KETAMA)));
    all.add(chash("chash maglev", settings(Algorithm.MAGLEV, "xxh3")));
    all.add(chash("chash rendezvous", settings(Algorithm.RENDEZVOUS, "xxh3")));
    all.add(chash("chash jump", settings(Algorithm.JUMP, "xxh3")));
    all.add(new Contender("spymemcached ketama", Contender::spymemcached));
    all.add(new Contender("guava consistentHash", Contender::guava));
    all.add(new Contender("hash4j JumpBackHash", Contender::jumpBack));
    all.add(new Contender("seed TreeMap ring", ids -> new SeedTreeMapRing(ids)::get));
    all.add(chash("chash ring (jdk)", settings(Algorithm.RING, "jdk")));
    all.add(chash("chash ring (fnv1-32)", settings(Algorithm.RING, "fnv1-32")));
    return all;
  }

  static RingSettings settings(Algorithm algorithm, String hash) {
    return RingSettings.builder().algorithm(algorithm).hash(hash).build();
  }

  static List<Node> nodes(List<String> ids) {
    List<Node> nodes = new ArrayList<>(ids.size());
    for (String id : ids) {
      nodes.add(Node.of(id));
    }
    return nodes;
  }

  static Contender chash(String name, RingSettings settings) {
    return new Contender(
        name,
        ids -> {
          Ring ring = Rings.create(settings, nodes(ids));
          return new Router() {
            @Override
            public String route(String key) {
              return ring.locate(key).id();
            }

            @Override
            public Map<String, Double> exactShares() {
              return ring.ownership();
            }
          };
        });
  }

  private static Router spymemcached(List<String> ids) {
    KetamaNodeLocator locator = SpyNodes.locator(ids);
    return key -> SpyNodes.id(locator.getPrimary(key));
  }

  private static Router guava(List<String> ids) {
    String[] nodes = ids.toArray(String[]::new);
    com.google.common.hash.HashFunction murmur = com.google.common.hash.Hashing.murmur3_128();
    return key ->
        nodes[
            com.google.common.hash.Hashing.consistentHash(
                murmur.hashString(key, StandardCharsets.UTF_8), nodes.length)];
  }

  private static Router jumpBack(List<String> ids) {
    String[] nodes = ids.toArray(String[]::new);
    ConsistentBucketHasher hasher = jumpBackHasher();
    Hasher64 xxh3 = Hashing.xxh3_64();
    return key -> nodes[hasher.getBucket(xxh3.hashCharsToLong(key), nodes.length)];
  }

  /** hash4j's JumpBackHash with its standard SplitMix64 generator. */
  static ConsistentBucketHasher jumpBackHasher() {
    return ConsistentHashing.jumpBackHash(PseudoRandomGeneratorProvider.splitMix64_V1());
  }
}
