package io.github.chash.cache;

/** A cache server process a fault test starts, kills, freezes and restarts on loopback. */
public interface TestServer extends ScenarioServer {
  /** {@return the server's port on 127.0.0.1} */
  int port();

  /** {@return the process id} */
  long pid();

  /** {@return whether the process is alive} */
  @Override
  boolean isRunning();

  /** Kills the process (SIGKILL) and waits for it to end. */
  @Override
  void kill();

  /** Freezes the process (SIGSTOP). */
  @Override
  void pause();

  /** Thaws a frozen process (SIGCONT). */
  @Override
  void resume();

  /** Starts the server again on the same port, with nothing stored. */
  @Override
  void restart();
}
