package io.github.chash.redis;

import io.github.chash.internal.node.ClientStalls;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The Netty event loops that read Redis replies, as the {@link ClientStalls.IoCheck} of every Redis
 * node's deadline: a reply can sit unread only while its loop cannot run, so before a timeout is
 * blamed on a server, each loop must have read its sockets since the check began.
 *
 * <p>A task submitted with {@code execute} does not show that: a loop runs its queued tasks in a
 * batch, and one submitted while a batch runs (on a starved client, a batch of callers' writes)
 * runs in that batch, before the loop reads the replies that arrived meanwhile. A healthy node was
 * ejected that way in a cold burst under a CPU quota (issue 43). So the check's no-op is queued at
 * the end of the loop's current iteration ({@code executeAfterEventLoopIteration}) and from there
 * as a task of the next one, which Netty begins by reading every socket that has data: once it ran,
 * every reply that had arrived before the check was read.
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
    Executor atIterationEnd =
        loop instanceof SingleThreadEventLoop single
            ? single::executeAfterEventLoopIteration
            : Runnable::run; // a loop of another kind: its next task is the best sign there is
    submit(atIterationEnd, () -> submit(loop, () -> ran.complete(null), ran), ran);
    return ran;
  }

  private static void submit(Executor executor, Runnable task, CompletableFuture<Void> ran) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException shutDown) {
      // a loop that was shut down reads no reply any more: nothing left unread on it
      ran.complete(null);
    }
  }
}
