package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.cache.EncodedValue;
import io.github.chash.internal.codec.CodecException;
import io.github.chash.internal.codec.JdkSerializationCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The peer clients' item format against the real transcoders: spymemcached 2.12.3's and XMemcached
 * 2.4.9's {@code SerializingTranscoder} read every item chash writes, and chash reads every item
 * they write, each type with its flags; hostile items are refused.
 */
class PeerTranscoderTest {
  private static final long MAX = 1 << 20;
  private final PeerTranscoder chash =
      new PeerTranscoder(new JdkSerializationCodec(List.of()), MAX);

  static Stream<Object> values() {
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("id", 7L);
    order.put("price", new BigDecimal("12.50"));
    Map<String, Object> large = new LinkedHashMap<>(order);
    large.put("notes", "n".repeat(40_000));
    return Stream.of(
        "user-7",
        "", // flags 0, no bytes
        "ünïcødé ✓",
        "x".repeat(20 * 1024), // compressed (flag 2)
        42L,
        -1L,
        0L,
        7,
        Integer.MIN_VALUE,
        true,
        false,
        new Date(1_700_000_000_000L),
        (byte) -3,
        1.5f,
        -2.25d,
        new byte[] {1, 2, 3},
        order, // serialized (flag 1)
        large); // serialized and compressed (flags 3)
  }

  @ParameterizedTest
  @MethodSource("values")
  void spymemcached_readsChashWritesAndChashReadsItsWrites(Object value) {
    net.spy.memcached.transcoders.SerializingTranscoder spy =
        new net.spy.memcached.transcoders.SerializingTranscoder();
    PeerTranscoder.Item item = chash.encode(value);
    Object read =
        spy.decode(new net.spy.memcached.CachedData(item.flags(), item.data(), Integer.MAX_VALUE));
    assertThat(read).isEqualTo(value);

    net.spy.memcached.CachedData written = spy.encode(value);
    assertThat(
            chash.decode(
                new PeerTranscoder.Item(written.getFlags(), written.getData()), Object.class))
        .isEqualTo(value);
  }

  @ParameterizedTest
  @MethodSource("values")
  void xmemcached_readsChashWritesAndChashReadsItsWrites(Object value) {
    net.rubyeye.xmemcached.transcoders.SerializingTranscoder xmc =
        new net.rubyeye.xmemcached.transcoders.SerializingTranscoder();
    PeerTranscoder.Item item = chash.encode(value);
    Object read =
        xmc.decode(
            new net.rubyeye.xmemcached.transcoders.CachedData(
                item.flags(), item.data(), item.data().length, -1L));
    assertThat(read).isEqualTo(value);

    net.rubyeye.xmemcached.transcoders.CachedData written = xmc.encode(value);
    assertThat(
            chash.decode(
                new PeerTranscoder.Item(written.getFlag(), written.getData()), Object.class))
        .isEqualTo(value);
  }

  @Test
  void anEncodedValue_isTheByteArrayItemThePeersRead_andReadBackAsEncoded() {
    byte[] json = "{\"id\":7}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    PeerTranscoder.Item item = chash.encode(new EncodedValue(json));
    Object read =
        new net.spy.memcached.transcoders.SerializingTranscoder()
            .decode(new net.spy.memcached.CachedData(item.flags(), item.data(), Integer.MAX_VALUE));
    assertThat(read).isEqualTo(json);
    assertThat(((EncodedValue) chash.decode(item, EncodedValue.class)).bytes()).isEqualTo(json);
    assertThat(chash.decode(item, Object.class)).isEqualTo(json);
  }

  @Test
  void compressedAboveTheClientsThreshold() {
    assertThat(chash.encode("x".repeat(20 * 1024)).flags()).isEqualTo(PeerTranscoder.COMPRESSED);
    assertThat(chash.encode("x".repeat(100)).flags()).isZero();
  }

  @Test
  void serializedClassOutsideTheAllowList_refused() throws Exception {
    byte[] serialized = serialize(new java.net.URI("http://example.com/"));
    assertThatThrownBy(
            () ->
                chash.decode(
                    new PeerTranscoder.Item(PeerTranscoder.SERIALIZED, serialized), Object.class))
        .isInstanceOf(CodecException.class)
        .hasMessageContaining("java.net.URI");
  }

  @Test
  void compressionBomb_refusedBeyondMaxValueSize() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(new byte[(int) MAX + 1]);
    }
    byte[] bomb = out.toByteArray();
    assertThat(bomb.length).isLessThan(10_000);
    assertThatThrownBy(
            () ->
                chash.decode(
                    new PeerTranscoder.Item(PeerTranscoder.COMPRESSED, bomb), Object.class))
        .isInstanceOf(CodecException.class)
        .hasMessageContaining("maxValueSize");
  }

  @Test
  void malformedItems_refusedNotThrownOtherwise() {
    assertThatThrownBy(
            () -> chash.decode(new PeerTranscoder.Item(0, new byte[] {(byte) 0xff}), Object.class))
        .isInstanceOf(CodecException.class);
    assertThatThrownBy(
            () ->
                chash.decode(
                    new PeerTranscoder.Item(PeerTranscoder.INT, new byte[5]), Object.class))
        .isInstanceOf(CodecException.class);
    assertThatThrownBy(
            () ->
                chash.decode(
                    new PeerTranscoder.Item(PeerTranscoder.COMPRESSED, new byte[] {1}),
                    Object.class))
        .isInstanceOf(CodecException.class);
    assertThatThrownBy(
            () -> chash.decode(new PeerTranscoder.Item(99 << 8, new byte[0]), Object.class))
        .isInstanceOf(CodecException.class);
  }

  /**
   * A string UTF-8 cannot hold is refused, not written as the {@code ?} spymemcached would read
   * back: that is another string (found by {@code MemcachedRandomKeysIT}).
   */
  @Test
  void stringWithAnUnpairedSurrogate_refused() {
    for (String text : List.of("\uD800", "a\uDC00b", "ends high \uDBFF")) {
      assertThatThrownBy(() -> chash.encode(text))
          .isInstanceOf(CodecException.class)
          .hasMessageContaining("unpaired surrogate");
    }
    String pair = "\uD83D\uDE00"; // a pair is one code point, kept
    assertThat(chash.decode(chash.encode(pair), Object.class)).isEqualTo(pair);
  }

  @Test
  void cachedNull_refused() {
    assertThatThrownBy(() -> chash.encode(io.github.chash.internal.cache.NullValue.INSTANCE))
        .isInstanceOf(CodecException.class)
        .hasMessageContaining("cached null");
  }

  private static byte[] serialize(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    return bytes.toByteArray();
  }
}
