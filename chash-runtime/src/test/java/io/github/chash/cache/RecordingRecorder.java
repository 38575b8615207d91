package io.github.chash.cache;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link CacheRecorder} that keeps what it is told, as lines, for tests. */
final class RecordingRecorder implements CacheRecorder {
  final List<String> events = new CopyOnWriteArrayList<>();
  private final boolean timed;

  RecordingRecorder(boolean timed) {
    this.timed = timed;
  }

  @Override
  public Operations cache(String cacheName) {
    return new Operations() {
      @Override
      public boolean timed() {
        return timed;
      }

      @Override
      public void nearHit(long nanos) {
        events.add(cacheName + " near hit" + (nanos >= 0 ? "" : " negative"));
      }

      @Override
      public void loaded(long nanos, boolean success) {
        events.add(cacheName + " load " + (success ? "success" : "failure"));
      }

      @Override
      public Object callStarted(NodeInfo node, NodeOperation operation) {
        return node.id() + " " + operation.tag();
      }

      @Override
      public void callEnded(
          Object started,
          NodeInfo node,
          NodeOperation operation,
          String result,
          long nanos,
          Throwable failure) {
        if (!started.equals(node.id() + " " + operation.tag())) {
          events.add("token mismatch: " + started);
        }
        events.add(
            cacheName
                + " "
                + started
                + " "
                + result
                + " "
                + node.system()
                + "@"
                + node.address()
                + (failure != null ? " failed" : ""));
      }
    };
  }

  @Override
  public void ejected(String nodeId, String cause) {
    events.add("ejected " + nodeId + " " + cause);
  }

  @Override
  public void readmitted(String nodeId, String cause) {
    events.add("readmitted " + nodeId + " " + cause);
  }
}
