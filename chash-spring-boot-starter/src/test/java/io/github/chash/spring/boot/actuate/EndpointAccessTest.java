package io.github.chash.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.Node;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * Over real HTTP, as the Spring Boot page says next to the exposure property: exposing {@code
 * chash} also exposes its drain/readmit write operation, and {@code
 * management.endpoint.chash.access=read-only} keeps the ring readable and refuses the POST.
 */
class EndpointAccessTest {
  private static final String DRAIN = "{\"node\": \"shard-b\", \"action\": \"drain\"}";

  @Test
  void readOnlyAccess_refusesTheDrainPost_andKeepsTheRing() throws Exception {
    try (EndpointHttp app =
        EndpointHttp.start(App.class, "management.endpoint.chash.access=read-only")) {
      assertThat(app.get().statusCode()).isEqualTo(200);

      HttpResponse<String> post = app.post(DRAIN);

      assertThat(post.statusCode()).as("POST %s: %s", DRAIN, post.body()).isEqualTo(405);
      assertThat(ringIds(app)).containsExactly("shard-a", "shard-b", "shard-c");
    }
  }

  @Test
  void defaultAccess_drainsOnPost() throws Exception {
    // what the page warns about: exposure alone makes the write operation reachable
    try (EndpointHttp app = EndpointHttp.start(App.class)) {
      HttpResponse<String> post = app.post(DRAIN);

      assertThat(post.statusCode()).as("POST %s: %s", DRAIN, post.body()).isEqualTo(200);
      assertThat(ringIds(app)).containsExactly("shard-a", "shard-c");
    }
  }

  private static Iterable<String> ringIds(EndpointHttp app) {
    return app.manager().ring().nodes().stream().map(Node::id).toList();
  }

  /** A Boot web application with nothing of its own: the starter's test ring (chash.yaml). */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
