package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.chash.redis.RedisServerProcess;
import io.github.chash.spring.boot.JsonValuesTest.Item;
import io.github.chash.spring.boot.JsonValuesTest.Shop;
import io.github.chash.spring.boot.JsonValuesTest.ShopConfiguration;
import io.github.chash.spring.cache.ChashCacheManager;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;

/**
 * What another Redis client reads of a record a Boot application caches as JSON on a real server:
 * the 20-byte header the configuration page documents, then the plain UTF-8 JSON, whatever the
 * node's codec; a cached null is the codec's null. Values stored in the earlier form (the JSON
 * inside a JDK-serialized {@code byte[]}) read as a miss, never an error.
 */
class JsonValuesRedisIT {
  private static final int HEADER = 20;
  private static final byte[] MAGIC = {0x00, 'c', 'h', 'R'};

  /** What {@code Shop.find(7)} returns, as JSON. */
  private static final JsonNode ITEM_7 =
      json("{\"id\":7,\"name\":\"item 7\",\"tags\":[\"a\",\"b\"]}");

  @TempDir Path dir;

  @Test
  void aRecord_isStoredAsPlainJsonAfterTheHeader_withTheDefaultJdkCodec() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      runner(redis, "  products: {}\n")
          .run(
              context -> {
                Shop shop = context.getBean(Shop.class);
                Item item = shop.find(7);

                byte[] stored = redis.getBytes("chash:products:7");
                assertThat(body(redis, stored)).isEqualTo(ITEM_7);
                assertThat(shop.find(7)).isEqualTo(item);
                assertThat(shop.runs("find")).isEqualTo(1);

                // sync = true: stored over the load's lease, as plain JSON all the same
                assertThat(shop.async(3).get(10, TimeUnit.SECONDS))
                    .containsExactly(new Item(3, "async 3", List.of()));
                assertThat(body(redis, redis.getBytes("chash:users:3")))
                    .isEqualTo(json("[{\"id\":3,\"name\":\"async 3\",\"tags\":[]}]"));

                // a cached null stays one: the jdk codec's own null after the header
                Cache products = context.getBean(ChashCacheManager.class).getCache("products");
                products.put(9L, null);
                assertThat(products.get(9L))
                    .isNotNull()
                    .extracting(Cache.ValueWrapper::get)
                    .isNull();
              });
    }
  }

  @Test
  void withTheJacksonCodec_aCachedNullIsJsonNullToo() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      runner(redis, "  products: { codec: jackson }\n")
          .run(
              context -> {
                Shop shop = context.getBean(Shop.class);
                Item item = shop.find(7);
                assertThat(body(redis, redis.getBytes("chash:products:7"))).isEqualTo(ITEM_7);
                assertThat(shop.find(7)).isEqualTo(item);

                Cache products = context.getBean(ChashCacheManager.class).getCache("products");
                products.put(9L, null);
                byte[] stored = redis.getBytes("chash:products:9");
                assertThat(
                        new String(stored, HEADER, stored.length - HEADER, StandardCharsets.UTF_8))
                    .isEqualTo("null");
                assertThat(products.get(9L))
                    .isNotNull()
                    .extracting(Cache.ValueWrapper::get)
                    .isNull();
              });
    }
  }

  @Test
  void theEarlierJdkWrappedForm_readsAsAMiss_andIsReplacedByPlainJson() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      runner(redis, "  products: {}\n")
          .run(
              context -> {
                // what the starter stored before: the JSON's byte[], JDK-serialized by the codec
                byte[] json =
                    "{\"id\":8,\"name\":\"old\",\"tags\":[]}".getBytes(StandardCharsets.UTF_8);
                ByteArrayOutputStream wrapped = new ByteArrayOutputStream();
                try (ObjectOutputStream out = new ObjectOutputStream(wrapped)) {
                  out.writeObject(json);
                }
                redis.setEntry("chash:products:8", wrapped.toByteArray());
                assertThat(redis.getEntry("chash:products:8")).startsWith(0xAC, 0xED);

                Shop shop = context.getBean(Shop.class);
                assertThat(shop.find(8)).isEqualTo(new Item(8, "item 8", List.of("a", "b")));
                assertThat(shop.runs("find")).isEqualTo(1);
                assertThat(context.getBean(ChashCacheManager.class).jsonRefusals())
                    .containsEntry("products", 1L);
                assertThat(body(redis, redis.getBytes("chash:products:8")).get("name").asText())
                    .isEqualTo("item 8");
              });
    }
  }

  private ApplicationContextRunner runner(RedisServerProcess redis, String products)
      throws Exception {
    Path yaml = dir.resolve("chash.yaml");
    Files.writeString(
        yaml,
        "nodes:\n"
            + "  - id: remote\n"
            + "    type: redis\n"
            + "    uri: "
            + redis.uri()
            + "\n"
            + "caches:\n"
            + products
            + "  prices: {}\n"
            + "  users: {}\n");
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
        .withUserConfiguration(ShopConfiguration.class)
        .withPropertyValues("chash.config=" + yaml.toUri());
  }

  /**
   * Reads an entry as another client would, by the documented layout: the magic, the tag that the
   * server's {@code chash:incarnation} record names (hex, before the space), 8 bytes of version,
   * then the JSON.
   */
  private static JsonNode body(RedisServerProcess redis, byte[] stored) throws Exception {
    assertThat(stored).isNotNull().hasSizeGreaterThan(HEADER);
    assertThat(Arrays.copyOfRange(stored, 0, 4)).isEqualTo(MAGIC);
    String record =
        new String(redis.getBytes("chash:incarnation"), StandardCharsets.US_ASCII).split(" ")[0];
    long tag = ByteBuffer.wrap(stored, 4, 8).getLong();
    assertThat(HexFormat.of().toHexDigits(tag)).isEqualTo(record);
    assertThat(stored[HEADER]).isNotEqualTo((byte) 0xAC); // no JDK serialization stream
    return json(new String(stored, HEADER, stored.length - HEADER, StandardCharsets.UTF_8));
  }

  private static JsonNode json(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
