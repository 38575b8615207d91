package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the migration tests' old clients cache (10,000 names, every hundredth 20 KB; 2,000 orders as
 * JDK-serialized maps), and the configuration blocks of migration.md they run as written.
 */
public final class LegacyData {
  public static final int STRINGS = 10_000;
  public static final int OBJECTS = 2_000;
  public static final int TTL_SECONDS = 3600;

  private LegacyData() {}

  /** An old client, as a team used it: text and objects written with a TTL, read back. */
  public interface OldClient {
    void setText(String key, int ttlSeconds, String value);

    void setObject(String key, int ttlSeconds, Object value);

    /** Waits until every write so far is stored (a client that pipelines its writes). */
    default void awaitWrites() {}

    /** {@return the values found (text as String, objects deserialized), by key} */
    Map<String, Object> readAll(List<String> textKeys, List<String> objectKeys);
  }

  /**
   * The switch every migration test makes: the old client writes {@link #STRINGS} names and {@link
   * #OBJECTS} orders; chash (caches {@code users} and {@code orders} of {@code manager}) reads
   * every one with its value; chash writes v2 of all, which the old client reads for every key (0
   * stale); chash evicts every seventh key, which the old client then misses, and reads v2 of the
   * others. No node call fails meanwhile.
   */
  public static void switchKeepsEveryValue(OldClient old, ShardedCacheManager manager) {
    List<String> userKeys = new java.util.ArrayList<>();
    List<String> orderKeys = new java.util.ArrayList<>();
    for (int i = 0; i < STRINGS; i++) {
      userKeys.add(userKey(i));
      old.setText(userKey(i), TTL_SECONDS, name(i, "v1"));
    }
    for (int i = 0; i < OBJECTS; i++) {
      orderKeys.add(orderKey(i));
      old.setObject(orderKey(i), TTL_SECONDS, order(i, "v1"));
    }
    old.awaitWrites();
    TypedCache<String, String> users = manager.cache("users").typed(String.class, String.class);
    TypedCache<String, Object> orders = manager.cache("orders").typed(String.class, Object.class);

    // 1. chash reads every value the old client wrote
    Map<String, String> readUsers = inBatches(userKeys, users::getAll);
    Map<String, Object> readOrders = inBatches(orderKeys, orders::getAll);
    int userHits = 0;
    for (int i = 0; i < STRINGS; i++) {
      userHits += name(i, "v1").equals(readUsers.get(userKey(i))) ? 1 : 0;
    }
    int orderHits = 0;
    for (int i = 0; i < OBJECTS; i++) {
      orderHits += order(i, "v1").equals(readOrders.get(orderKey(i))) ? 1 : 0;
    }
    System.out.printf(
        "%n=== chash read %d of %d strings and %d of %d objects the old client wrote%n",
        userHits, STRINGS, orderHits, OBJECTS);
    assertThat(userHits)
        .as("strings chash read as the old client wrote (%s)", manager.nodeStats())
        .isEqualTo(STRINGS);
    assertThat(orderHits).as("objects chash read as the old client wrote").isEqualTo(OBJECTS);
    assertThat(users.getIfPresent(userKey(0))).isEqualTo(name(0, "v1")); // a 20 KB one, alone

    // 2. chash writes v2; the old client reads v2 for every key
    Map<String, String> userV2 = new LinkedHashMap<>();
    for (int i = 0; i < STRINGS; i++) {
      userV2.put(userKey(i), name(i, "v2"));
    }
    Map<String, Object> orderV2 = new LinkedHashMap<>();
    for (int i = 0; i < OBJECTS; i++) {
      orderV2.put(orderKey(i), order(i, "v2"));
    }
    putInBatches(users, userV2);
    putInBatches(orders, orderV2);
    users.put(userKey(7), name(7, "v2")); // the single-key write too
    Map<String, Object> seen = old.readAll(userKeys, orderKeys);
    int stale = 0;
    for (int i = 0; i < STRINGS; i++) {
      stale += name(i, "v2").equals(seen.get(userKey(i))) ? 0 : 1;
    }
    for (int i = 0; i < OBJECTS; i++) {
      stale += order(i, "v2").equals(seen.get(orderKey(i))) ? 0 : 1;
    }
    System.out.printf(
        "=== the old client read %d stale of %d after chash's writes%n", stale, STRINGS + OBJECTS);
    assertThat(stale).as("keys the old client reads older than chash's write").isZero();

    // 3. chash evicts; the old client misses exactly those keys
    int evicted = 0;
    for (int i = 0; i < STRINGS; i += 7) {
      users.evict(userKey(i));
      evicted++;
    }
    for (int i = 0; i < OBJECTS; i += 7) {
      orders.evict(orderKey(i));
      evicted++;
    }
    Map<String, Object> after = old.readAll(userKeys, orderKeys);
    int missed = userKeys.size() + orderKeys.size() - after.size();
    int wrong = 0;
    for (int i = 0; i < STRINGS; i++) {
      Object value = after.get(userKey(i));
      wrong += value != null && (i % 7 == 0 || !value.equals(name(i, "v2"))) ? 1 : 0;
    }
    for (int i = 0; i < OBJECTS; i++) {
      Object value = after.get(orderKey(i));
      wrong += value != null && (i % 7 == 0 || !value.equals(order(i, "v2"))) ? 1 : 0;
    }
    assertThat(missed).as("keys the old client misses after chash's evictions").isEqualTo(evicted);
    assertThat(wrong).isZero();
    assertThat(manager.nodeStats().values()).allSatisfy(s -> assertThat(s.errorCount()).isZero());
  }

  /** The key of name {@code i}. */
  public static String userKey(int i) {
    return "user:" + i;
  }

  /** The key of order {@code i}: one with a colon inside, as an application's own prefix. */
  public static String orderKey(int i) {
    return "app:order:" + i;
  }

  /** A name; every hundredth is 20 KB (which spymemcached compresses). */
  public static String name(int i, String version) {
    String name = "name-" + i + "-" + version;
    return i % 100 == 0 ? name + "x".repeat(20 * 1024) : name;
  }

  /** An order: a map of JDK types, which the default allow-list accepts. */
  public static Map<String, Object> order(int i, String version) {
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("id", (long) i);
    order.put("item", "item-" + i + "-" + version);
    order.put("price", new BigDecimal(i).movePointLeft(2));
    order.put("at", Instant.ofEpochSecond(1_700_000_000L + i));
    return order;
  }

  public static byte[] serialize(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ObjectOutputStream objects = new ObjectOutputStream(out)) {
      objects.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  public static Object deserialize(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Applies a bulk call to the keys 200 at a time, as an application pages its bulk calls: one
   * request per node per call must fit in the node timeout with 20 KB values.
   */
  public static <V> Map<String, V> inBatches(
      List<String> keys, Function<List<String>, Map<String, V>> call) {
    Map<String, V> all = new LinkedHashMap<>();
    for (int from = 0; from < keys.size(); from += 200) {
      all.putAll(call.apply(keys.subList(from, Math.min(keys.size(), from + 200))));
    }
    return all;
  }

  /** Stores the values 200 at a time ({@link #inBatches}). */
  public static <V> void putInBatches(TypedCache<String, V> cache, Map<String, V> values) {
    inBatches(
        List.copyOf(values.keySet()),
        keys -> {
          Map<String, V> batch = new LinkedHashMap<>();
          keys.forEach(k -> batch.put(k, values.get(k)));
          cache.putAll(batch);
          return Map.of();
        });
  }

  /**
   * The YAML block of migration.md marked {@code <!-- LegacyPeersIT: name -->}, each match of
   * {@code address} replaced by what {@code replacement} gives for the match's first group.
   */
  public static String migrationBlock(
      String name, String address, Function<Integer, String> replacement) throws IOException {
    Path page = Path.of("..", "src-site", "markdown", "migration.md");
    String text = Files.readString(page);
    String marker = "<!-- LegacyPeersIT: " + name + " -->";
    int at = text.indexOf(marker);
    assertThat(at).as("%s in %s", marker, page).isNotNegative();
    int start = text.indexOf("```yaml\n", at) + "```yaml\n".length();
    String block = text.substring(start, text.indexOf("```", start));
    Matcher m = Pattern.compile(address).matcher(block);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(replacement.apply(Integer.parseInt(m.group(1)))));
    }
    m.appendTail(out);
    return out.toString();
  }
}
