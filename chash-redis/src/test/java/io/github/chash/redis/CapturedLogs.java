package io.github.chash.redis;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Captures everything logged through {@code java.util.logging} (where {@code System.Logger} and
 * Lettuce's netty logging end up when no other backend is present), with stack traces. For
 * asserting what reaches a log, and what never does.
 */
final class CapturedLogs extends Handler implements AutoCloseable {
  private final Logger root = Logger.getLogger("");
  private final Level previousLevel = root.getLevel();
  private final Formatter formatter = new SimpleFormatter();
  private final List<String> lines = new ArrayList<>();

  private CapturedLogs(Level level) {
    setLevel(level);
  }

  /** Captures at DEBUG ({@code FINE}) and above: the most a production system logs. */
  static CapturedLogs start() {
    return start(Level.FINE);
  }

  /** Captures at the given level and above ({@code ALL} includes Lettuce's TRACE wire dump). */
  static CapturedLogs start(Level level) {
    CapturedLogs logs = new CapturedLogs(level);
    logs.root.setLevel(level);
    logs.root.addHandler(logs);
    return logs;
  }

  @Override
  public synchronized void publish(LogRecord record) {
    StringBuilder line = new StringBuilder();
    line.append(record.getLevel()).append(' ').append(record.getLoggerName()).append(": ");
    line.append(formatter.formatMessage(record));
    if (record.getThrown() != null) {
      StringWriter trace = new StringWriter();
      record.getThrown().printStackTrace(new PrintWriter(trace));
      line.append('\n').append(trace);
    }
    lines.add(line.toString());
  }

  /** Everything captured so far, one entry per record. */
  synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  /** Everything captured so far as one text. */
  synchronized String text() {
    return String.join("\n", lines);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    root.removeHandler(this);
    root.setLevel(previousLevel);
  }
}
