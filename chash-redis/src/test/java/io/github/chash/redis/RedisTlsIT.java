package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.ValueType;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.RedisConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
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
    run(
        dir,
        "keytool",
        "-importcert",
        "-noprompt",
        "-alias",
        "test-ca",
        "-file",
        tls.authority().toString(),
        "-keystore",
        trustStore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit");
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
    CacheNode node =
        new RedisCacheNodeFactory(Map.<String, String>of()::get)
            .create(
                NodeConfig.redis("tls", uri),
                RedisCacheNodeIT.config(RedisConfig.defaults(), Duration.ofSeconds(1)));
    node.awaitReady();
    return node;
  }

  /**
   * A self-signed certificate for 127.0.0.1 (its own CA), made with the JDK's keytool and written
   * as PEM for redis-server: no openssl needed on the machine.
   */
  private static RedisServerProcess.Tls certificates(Path dir) throws Exception {
    Path keyStore = dir.resolve("server.p12");
    run(
        dir,
        "keytool",
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1",
        "-validity",
        "2",
        "-keystore",
        keyStore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit");
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      store.load(in, "changeit".toCharArray());
    }
    Key key = store.getKey("server", "changeit".toCharArray());
    Certificate certificate = store.getCertificate("server");
    Path keyFile = dir.resolve("server.key");
    Path certificateFile = dir.resolve("server.crt");
    Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded())); // PKCS#8
    Files.writeString(certificateFile, pem("CERTIFICATE", certificate.getEncoded()));
    return new RedisServerProcess.Tls(certificateFile, keyFile, certificateFile);
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static void run(Path dir, String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + output);
    }
  }
}
