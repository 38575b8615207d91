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
