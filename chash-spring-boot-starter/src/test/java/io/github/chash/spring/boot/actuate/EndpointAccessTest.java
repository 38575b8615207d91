package io.github.chash.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.ring.Node;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Over real HTTP, as the Spring Boot page says next to the exposure property: exposing {@code
 * chash} also exposes its drain/readmit write operation, and {@code
 * management.endpoint.chash.access=read-only} keeps the ring readable and refuses the POST.
 */
class EndpointAccessTest {
  private static final String DRAIN = "{\"node\": \"shard-b\", \"action\": \"drain\"}";

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void readOnlyAccess_refusesTheDrainPost_andKeepsTheRing() throws Exception {
    try (ConfigurableApplicationContext app = start("management.endpoint.chash.access=read-only")) {
      assertThat(get(app).statusCode()).isEqualTo(200);

      HttpResponse<String> post = post(app);

      assertThat(post.statusCode()).as("POST %s: %s", DRAIN, post.body()).isEqualTo(405);
      assertThat(ringIds(app)).containsExactly("shard-a", "shard-b", "shard-c");
    }
  }

  @Test
  void defaultAccess_drainsOnPost() throws Exception {
    // what the page warns about: exposure alone makes the write operation reachable
    try (ConfigurableApplicationContext app = start()) {
      HttpResponse<String> post = post(app);

      assertThat(post.statusCode()).as("POST %s: %s", DRAIN, post.body()).isEqualTo(200);
      assertThat(ringIds(app)).containsExactly("shard-a", "shard-c");
    }
  }

  private static ConfigurableApplicationContext start(String... properties) {
    return new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "management.endpoints.web.exposure.include=chash")
        .properties(properties)
        .run();
  }

  private HttpResponse<String> get(ConfigurableApplicationContext app)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(endpoint(app)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(ConfigurableApplicationContext app)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(endpoint(app))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(DRAIN))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI endpoint(ConfigurableApplicationContext app) {
    String port = app.getEnvironment().getProperty("local.server.port");
    return URI.create("http://127.0.0.1:" + port + "/actuator/chash");
  }

  private static Iterable<String> ringIds(ConfigurableApplicationContext app) {
    return app.getBean(ShardedCacheManager.class).ring().nodes().stream().map(Node::id).toList();
  }

  /** A Boot web application with nothing of its own: the starter's test ring (chash.yaml). */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
