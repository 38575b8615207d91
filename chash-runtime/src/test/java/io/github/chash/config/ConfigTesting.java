package io.github.chash.config;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.reflect.Method;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared helpers of the config tests. */
final class ConfigTesting {
  private ConfigTesting() {}

  /** The problems, as printed, of a call that must throw {@link ConfigException}. */
  static List<String> problems(ThrowingCallable call) {
    ConfigException e = catchThrowableOfType(ConfigException.class, call);
    if (e == null) {
      throw new AssertionError("expected a ConfigException");
    }
    return e.problems().stream().map(ConfigProblem::toString).toList();
  }

  /** CPU time in nanoseconds this thread has used so far. */
  static long threadCpuNanos() {
    return call(CPU_TIME);
  }

  /** Bytes this thread has allocated so far. */
  static long threadAllocatedBytes() {
    return call(ALLOCATED, Thread.currentThread().getId());
  }

  // reflectively: the runtime's module does not read java.management, which tests compile in
  private static final Object THREADS;
  private static final Method CPU_TIME;
  private static final Method ALLOCATED;

  static {
    try {
      THREADS =
          Class.forName("java.lang.management.ManagementFactory")
              .getMethod("getThreadMXBean")
              .invoke(null);
      CPU_TIME =
          Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime");
      ALLOCATED =
          Class.forName("com.sun.management.ThreadMXBean")
              .getMethod("getThreadAllocatedBytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static long call(Method method, Object... args) {
    try {
      return (long) method.invoke(THREADS, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The problems of parsing {@code yaml} as {@code chash.yaml}. */
  static List<String> problems(String yaml) {
    return problems(() -> ChashConfigs.parse(yaml, "chash.yaml"));
  }
}
