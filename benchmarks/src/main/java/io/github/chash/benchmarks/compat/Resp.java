package io.github.chash.benchmarks.compat;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A minimal pipelining RESP2 client: enough to SET through twemproxy and SCAN its backends. */
final class Resp implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  Resp(String host, int port) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress(host, port), 5000);
    socket.setSoTimeout(30_000);
    in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
  }

  /** Sends every command, then reads every reply, in order. */
  List<Object> pipeline(List<String[]> commands) throws IOException {
    for (String[] command : commands) {
      out.write(("*" + command.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      for (String arg : command) {
        byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
        out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write('\r');
        out.write('\n');
      }
    }
    out.flush();
    List<Object> replies = new ArrayList<>(commands.size());
    for (int i = 0; i < commands.size(); i++) {
      replies.add(read());
    }
    return replies;
  }

  Object call(String... command) throws IOException {
    return pipeline(List.<String[]>of(command)).get(0);
  }

  private Object read() throws IOException {
    int type = in.read();
    String line = line();
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new IOException("error reply: " + line);
      case ':':
        return Long.parseLong(line);
      case '$':
        int length = Integer.parseInt(line);
        if (length < 0) {
          return null;
        }
        byte[] bytes = in.readNBytes(length + 2);
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      case '*':
        int count = Integer.parseInt(line);
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          items.add(read());
        }
        return items;
      default:
        throw new IOException("connection closed or bad reply type " + type);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\r'; c = in.read()) {
      if (c < 0) {
        throw new IOException("connection closed");
      }
      b.write(c);
    }
    in.read();
    return b.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
