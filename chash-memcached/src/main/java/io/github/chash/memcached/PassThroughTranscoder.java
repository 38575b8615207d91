package io.github.chash.memcached;

import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;

/**
 * A transcoder that hands an item's bytes through as they are: no compression, no serialization and
 * none of XMemcached's settings, which the node's own codecs make meaningless. Subclasses only say
 * how bytes and flags map to their type. Thread-safe.
 *
 * @param <T> what the node reads and writes
 */
abstract class PassThroughTranscoder<T> implements Transcoder<T> {
  @Override
  public final void setPrimitiveAsString(boolean primitiveAsString) {}

  @Override
  public final void setPackZeros(boolean packZeros) {}

  @Override
  public final void setCompressionThreshold(int to) {}

  @Override
  public final boolean isPrimitiveAsString() {
    return false;
  }

  @Override
  public final boolean isPackZeros() {
    return false;
  }

  @Override
  public final void setCompressionMode(CompressionMode compressMode) {}
}
