package io.github.chash.cache;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Turns this library's logs off for a test class and back on after it: the simulations run
 * thousands of managers, whose ejections and reconfigurations log at WARNING and INFO by thousands.
 */
final class QuietChashLogs implements BeforeAllCallback, AfterAllCallback {
  private static final Logger CHASH_LOGS = Logger.getLogger("io.github.chash");
  private static final ExtensionContext.Namespace HERE =
      ExtensionContext.Namespace.create(QuietChashLogs.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(HERE).put(Level.class, CHASH_LOGS.getLevel()); // null: inherited
    CHASH_LOGS.setLevel(Level.OFF);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    CHASH_LOGS.setLevel(context.getStore(HERE).get(Level.class, Level.class));
  }
}
