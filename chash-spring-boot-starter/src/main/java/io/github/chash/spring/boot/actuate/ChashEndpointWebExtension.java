package io.github.chash.spring.boot.actuate;

import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.lang.Nullable;

/**
 * The {@code chash} endpoint over HTTP: a change it refuses (a missing node or action, an unknown
 * node or action, a node drained already or not drained, the last node) answers 400 with the reason
 * in the body, {@code {"error": "..."}}, instead of a 500 whose reason is only in the server's log,
 * or Actuator's own 400 for a missing parameter, which gives none. Thread-safe.
 */
@EndpointWebExtension(endpoint = ChashEndpoint.class)
public class ChashEndpointWebExtension {
  private final ChashEndpoint endpoint;

  /**
   * Creates the extension of an endpoint.
   *
   * @param endpoint the endpoint whose changes it answers over HTTP
   */
  public ChashEndpointWebExtension(ChashEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * {@link ChashEndpoint#change}, over HTTP.
   *
   * @param node the node's id; optional here, so that a missing one gets the endpoint's reason
   * @param action {@code drain} or {@code readmit}; optional here, as {@code node}
   * @return the ring after the change (200), or the reason the change was refused (400)
   */
  @WriteOperation
  public WebEndpointResponse<Object> change(@Nullable String node, @Nullable String action) {
    try {
      return new WebEndpointResponse<>(endpoint.change(node, action));
    } catch (IllegalArgumentException | IllegalStateException refused) {
      return new WebEndpointResponse<>(
          Map.of("error", String.valueOf(refused.getMessage())),
          WebEndpointResponse.STATUS_BAD_REQUEST);
    }
  }
}
