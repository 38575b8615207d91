package io.github.chash.memcached;

import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;

/**
 * Bytes in, the same bytes out, flags 0: no compression, no serialization of XMemcached's own (the
 * node's codec and envelope do that). Thread-safe.
 */
final class RawTranscoder implements Transcoder<byte[]> {
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

  @Override
  public void setPrimitiveAsString(boolean primitiveAsString) {}

  @Override
  public void setPackZeros(boolean packZeros) {}

  @Override
  public void setCompressionThreshold(int to) {}

  @Override
  public boolean isPrimitiveAsString() {
    return false;
  }

  @Override
  public boolean isPackZeros() {
    return false;
  }

  @Override
  public void setCompressionMode(CompressionMode compressMode) {}
}
