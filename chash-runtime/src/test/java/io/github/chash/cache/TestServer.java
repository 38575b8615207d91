package io.github.chash.cache;

/** A cache server process a fault test starts, kills, freezes and restarts on loopback. */
public interface TestServer {
  /** {@return the server's port on 127.0.0.1} */
  int port();

  /** {@return the process id} */
  long pid();

  /** {@return whether the process is alive} */
  boolean isRunning();

  /** Kills the process (SIGKILL) and waits for it to end. */
  void kill();

  /** Freezes the process (SIGSTOP). */
  void pause();

  /** Thaws a frozen process (SIGCONT). */
  void resume();

  /** Starts the server again on the same port, with nothing stored. */
  void restart();
}
