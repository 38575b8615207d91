package io.github.chash.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy on a free loopback port in front of a loopback server that holds the first request
 * containing a marker (e.g. {@code TRACKING}) until the test releases it: a server that answers
 * that one command late, past the client's timeout, while every other byte passes through. Or,
 * {@linkplain #pause paused}, one that holds every request: what one client sees of a healthy
 * server while its pod is throttled, paused or partitioned from it, when other clients see nothing
 * wrong. Each connection is pumped by two daemon threads; {@link #close} closes every socket, which
 * ends them.
 */
final class HoldingProxy implements AutoCloseable {
  private static final long NEVER_SECONDS = 30;

  private final int targetPort;
  private final byte[] marker;
  private final ServerSocket listening;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicBoolean holding = new AtomicBoolean();
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);

  /**
   * Open (count 0) but while {@link #pause paused}: every request waits at it before it is sent.
   */
  private volatile CountDownLatch gate = new CountDownLatch(0);

  private HoldingProxy(int targetPort, String marker) throws IOException {
    this.targetPort = targetPort;
    this.marker = marker.getBytes(StandardCharsets.US_ASCII);
    this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "holding-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Starts a proxy to {@code 127.0.0.1:targetPort} holding the first request with the marker. */
  static HoldingProxy start(int targetPort, String marker) throws IOException {
    return new HoldingProxy(targetPort, marker);
  }

  /** Starts a proxy to {@code 127.0.0.1:targetPort} that holds nothing until {@link #pause}d. */
  static HoldingProxy start(int targetPort) throws IOException {
    return new HoldingProxy(targetPort, "");
  }

  /** Holds every request from now on (replies to those already sent pass) until {@link #resume}. */
  void pause() {
    gate = new CountDownLatch(1);
  }

  /** Sends the held requests, and every later one, on. */
  void resume() {
    gate.countDown();
  }

  int port() {
    return listening.getLocalPort();
  }

  /** Waits (at most 30 s) until a request with the marker is held; {@return whether one is} */
  boolean awaitHeld() throws InterruptedException {
    return held.await(NEVER_SECONDS, TimeUnit.SECONDS);
  }

  /** Lets the held request (and everything after it on its connection) through. */
  void release() {
    released.countDown();
  }

  private void accept() {
    while (!listening.isClosed()) {
      try {
        Socket client = listening.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(client);
        sockets.add(server);
        pump(client, server, true);
        pump(server, client, false);
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, boolean requests) {
    Thread pump =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                  if (requests && contains(buffer, n) && holding.compareAndSet(false, true)) {
                    held.countDown();
                    released.await(NEVER_SECONDS, TimeUnit.SECONDS);
                  }
                  if (requests) {
                    gate.await(NEVER_SECONDS, TimeUnit.SECONDS);
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException | InterruptedException gone) {
                // either side closed: the other is closed below
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "holding-proxy-" + (requests ? "requests" : "replies"));
    pump.setDaemon(true);
    pump.start();
  }

  private boolean contains(byte[] buffer, int length) {
    if (marker.length == 0) {
      return false; // no marker: nothing is held but while paused
    }
    outer:
    for (int i = 0; i + marker.length <= length; i++) {
      for (int j = 0; j < marker.length; j++) {
        if (buffer[i + j] != marker[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Override
  public void close() {
    released.countDown();
    gate.countDown();
    closeQuietly(listening);
    sockets.forEach(HoldingProxy::closeQuietly);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // closing anyway
    }
  }
}
