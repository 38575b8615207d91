package io.github.chash.cache;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link CacheRecorder} that keeps what it is told, as lines, for tests. */
final class RecordingRecorder implements CacheRecorder {
  final List<String> events = new CopyOnWriteArrayList<>();

  /** What {@link #nodesServed} was told, in order. */
  final List<List<String>> served = new CopyOnWriteArrayList<>();

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
  public void nodesServed(Collection<String> nodeIds) {
    served.add(List.copyOf(nodeIds));
  }

  @Override
  public void ejected(String nodeId, String cause) {
    events.add("ejected " + nodeId + " " + cause + listed(cause, EJECTION_CAUSES));
  }

  @Override
  public void readmitted(String nodeId, String cause) {
    events.add("readmitted " + nodeId + " " + cause + listed(cause, READMISSION_CAUSES));
  }

  /** A cause missing from its list would be a meter a dashboard never saw registered. */
  private static String listed(String cause, List<String> causes) {
    return causes.contains(cause) ? "" : " (not a listed cause)";
  }
}
