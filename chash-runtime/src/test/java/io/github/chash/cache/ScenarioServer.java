package io.github.chash.cache;

/**
 * A cache server a test freezes, kills and restarts: a real process on loopback ({@link
 * TestServer}) or a simulated one ({@link SimFleet}), so that a scenario written against it runs on
 * both.
 */
public interface ScenarioServer {
  /** {@return whether the server is up (not killed)} */
  boolean isRunning();

  /** Kills the server (SIGKILL: what it held is gone) and waits for it to end. */
  void kill();

  /**
   * Freezes the server (SIGSTOP): requests sent to it wait, and are applied once it thaws, in the
   * order they came; a client whose call timed out meanwhile never hears the reply.
   */
  void pause();

  /** Thaws a frozen server (SIGCONT). */
  void resume();

  /** Starts the server again, with nothing stored. */
  void restart();
}
