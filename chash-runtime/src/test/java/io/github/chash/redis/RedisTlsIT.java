package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.ValueType;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.RedisConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rediss://}: a TLS-only server whose certificate the JVM's trust store trusts. */
class RedisTlsIT {

  @Test
  void rediss_connectsOverTlsAndVerifiesTheServer(@TempDir Path dir) throws Exception {
    RedisServerProcess.Tls tls = certificates(dir);
    Path trustStore = dir.resolve("trust.p12");
    run(dir, "keytool", "-importcert", "-noprompt", "-alias", "test-ca", "-file",
        tls.authority().toString(), "-keystore", trustStore.toString(), "-storetype", "PKCS12",
        "-storepass", "changeit");
    try (RedisServerProcess server = RedisServerProcess.startTls(tls)) {
      String plain = "redis://127.0.0.1:" + server.port();
      String secure = "rediss://127.0.0.1:" + server.port();

      // without the CA in the trust store the server's certificate is refused
      try (CacheNode untrusted = node(secure)) {
        assertThatThrownBy(untrusted::ping).isInstanceOf(CacheNodeException.class);
      }
      // plain text to a TLS port gets no answer
      try (CacheNode wrongScheme = node(plain)) {
        assertThatThrownBy(wrongScheme::ping).isInstanceOf(CacheNodeException.class);
      }

      String before = System.getProperty("javax.net.ssl.trustStore");
      System.setProperty("javax.net.ssl.trustStore", trustStore.toString());
      System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
      try (CacheNode node = node(secure)) {
        node.put("k", "over tls", Duration.ofMinutes(1));
        assertThat(node.get("k", ValueType.of(String.class))).isEqualTo("over tls");
        assertThat(node.toString()).endsWith("rediss://127.0.0.1:" + server.port() + "/0]");
      } finally {
        if (before == null) {
          System.clearProperty("javax.net.ssl.trustStore");
        } else {
          System.setProperty("javax.net.ssl.trustStore", before);
        }
        System.clearProperty("javax.net.ssl.trustStorePassword");
      }
    }
  }

  private static CacheNode node(String uri) {
    return new RedisCacheNodeFactory(Map.<String, String>of()::get)
        .create(
            NodeConfig.redis("tls", uri),
            RedisCacheNodeIT.config(RedisConfig.defaults(), Duration.ofSeconds(1)));
  }

  /** A CA and a server certificate for 127.0.0.1 signed by it, made with the openssl CLI. */
  private static RedisServerProcess.Tls certificates(Path dir) throws IOException, InterruptedException {
    run(dir, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-subj", "/CN=chash test CA", "-keyout", "ca.key", "-out", "ca.crt");
    run(dir, "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", "server.key", "-out", "server.csr");
    Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1\n");
    run(dir, "openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt");
    return new RedisServerProcess.Tls(
        dir.resolve("server.crt"), dir.resolve("server.key"), dir.resolve("ca.crt"));
  }

  private static void run(Path dir, String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + output);
    }
  }
}
