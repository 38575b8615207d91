package io.github.chash.memcached;

import net.rubyeye.xmemcached.transcoders.CachedData;

/**
 * Bytes in, the same bytes out, flags 0: no compression, no serialization of XMemcached's own (the
 * node's codec and envelope do that). Thread-safe.
 */
final class RawTranscoder extends PassThroughTranscoder<byte[]> {
  static final RawTranscoder INSTANCE = new RawTranscoder();

  private RawTranscoder() {}

  @Override
  public CachedData encode(byte[] bytes) {
    // capacity = length: the node checks sizes itself (maxValueSize), not XMemcached's 1 MB cap
    return new CachedData(0, bytes, bytes.length, -1L);
  }

  @Override
  public byte[] decode(CachedData data) {
    return data.getData();
  }
}
