package io.github.chash.spring.boot.membership;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.NodeConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;

/** What the membership tests read of a running Boot app: its manager's nodes and its health. */
final class RunningApp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private RunningApp() {}

  /** The ids of the nodes the app's cache manager runs, in order. */
  static List<String> ids(ConfigurableApplicationContext app) {
    return app.getBean(ShardedCacheManager.class).nodeConfigs().stream()
        .map(NodeConfig::id)
        .toList();
  }

  /** The {@code chash} component of {@code /actuator/health}, read over HTTP. */
  static JsonNode chashHealth(ConfigurableApplicationContext app) throws Exception {
    String port = app.getEnvironment().getProperty("local.server.port");
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode health = JSON.readTree(response.body());
    // DEGRADED is outside Boot's status order: the application itself stays UP, so 200 always
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(health.path("status").asText()).as(response.body()).isEqualTo("UP");
    return health.path("components").path("chash");
  }

  /**
   * Asserts that the app's {@code chash} health is DEGRADED because it runs epoch {@code applied}
   * while the source announced {@code announced}, whose problem names each of {@code problem}.
   */
  static void assertBehind(
      ConfigurableApplicationContext app, long applied, long announced, String... problem)
      throws Exception {
    JsonNode behind = chashHealth(app);
    assertThat(behind.path("status").asText()).as(behind.toString()).isEqualTo("DEGRADED");
    assertThat(behind.path("description").asText())
        .contains(
            "behind the membership source: epoch "
                + applied
                + " runs, "
                + announced
                + " announced");
    JsonNode membership = behind.path("details").path("membership");
    assertThat(membership.path("behind").asBoolean()).isTrue();
    assertThat(membership.path("appliedEpoch").asLong()).isEqualTo(applied);
    assertThat(membership.path("problem").asText()).contains(problem);
  }
}
