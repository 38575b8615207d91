package io.github.chash.redis;

import io.github.chash.internal.node.ClientStalls;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * The Netty event loops that read Redis replies, as the {@link ClientStalls.IoCheck} of every Redis
 * node's deadline: a reply can sit unread only while its loop cannot run, so before a timeout is
 * blamed on a server, each loop runs a no-op. Netty runs a loop's tasks after the I/O it has
 * selected, so once the no-op ran, every reply that had arrived before was read.
 *
 * <p>Loops are learned from the channels Lettuce opens ({@link NettyCustomizer}, its public hook),
 * so the check covers every connection of every node sharing these client resources. Thread-safe.
 */
final class IoThreads implements NettyCustomizer, ClientStalls.IoCheck {
  private final Set<EventLoop> loops = ConcurrentHashMap.newKeySet();

  @Override
  public void afterChannelInitialized(Channel channel) {
    loops.add(channel.eventLoop());
  }

  @Override
  public CompletableFuture<Void> ran() {
    return CompletableFuture.allOf(
        loops.stream().map(IoThreads::noOp).toArray(CompletableFuture[]::new));
  }

  private static CompletableFuture<Void> noOp(EventLoop loop) {
    CompletableFuture<Void> ran = new CompletableFuture<>();
    try {
      loop.execute(() -> ran.complete(null));
    } catch (RejectedExecutionException shutDown) {
      // a loop that was shut down reads no reply any more: nothing left unread on it
      ran.complete(null);
    }
    return ran;
  }
}
