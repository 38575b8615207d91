package io.github.chash.memcached;

import net.rubyeye.xmemcached.transcoders.CachedData;

/**
 * An item's flags and bytes as they are, both ways: the {@link PeerTranscoder} format is applied by
 * the node, not by XMemcached (whose own transcoder would deserialize without a filter).
 * Thread-safe.
 */
final class ItemTranscoder extends PassThroughTranscoder<PeerTranscoder.Item> {
  static final ItemTranscoder INSTANCE = new ItemTranscoder();

  private ItemTranscoder() {}

  @Override
  public CachedData encode(PeerTranscoder.Item item) {
    return new CachedData(item.flags(), item.data(), item.data().length, -1L);
  }

  @Override
  public PeerTranscoder.Item decode(CachedData data) {
    return new PeerTranscoder.Item(data.getFlag(), data.getData());
  }
}
