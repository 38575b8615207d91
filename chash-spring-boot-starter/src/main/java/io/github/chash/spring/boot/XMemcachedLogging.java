package io.github.chash.spring.boot;

import java.util.List;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Quiets XMemcached's own connection logging. While a memcached server is down, XMemcached and its
 * network layer (yanf4j) log each reconnect attempt at ERROR, most with a stack trace: 25 lines in
 * 5 s for one dead node (54 ERROR lines and 108 stack-trace lines in 20 s as a user measured it).
 * chash says the same once per node and change of state (the node that cannot connect yet, its
 * ejection, its readmission), so these loggers are turned off, unless the application set a level
 * for one of them ({@code logging.level.com.google.code.yanf4j=error} brings them back).
 */
final class XMemcachedLogging {
  /** XMemcached's client, yanf4j's controller and reactor, and yanf4j's "remoting" logger. */
  static final List<String> LOGGERS =
      List.of("net.rubyeye.xmemcached", "com.google.code.yanf4j", "remoting");

  private XMemcachedLogging() {}

  /** Turns the loggers off, when XMemcached is on the class path and the application did not. */
  static void quiet(Environment environment, ClassLoader loader) {
    if (!ClassUtils.isPresent("net.rubyeye.xmemcached.XMemcachedClient", loader)) {
      return;
    }
    LoggingSystem logging = LoggingSystem.get(loader);
    for (String logger : LOGGERS) {
      if (!environment.containsProperty("logging.level." + logger)) {
        logging.setLogLevel(logger, LogLevel.OFF);
      }
    }
  }
}
