package io.github.chash.spring.boot.actuate;

import io.github.chash.cache.ShardedCacheManager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Boot web application with the {@code chash} endpoint exposed on a free port, and the HTTP calls
 * the endpoint's tests make to it. Closing it stops the application.
 */
final class EndpointHttp implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final ConfigurableApplicationContext app;
  private final URI endpoint;

  private EndpointHttp(ConfigurableApplicationContext app) {
    this.app = app;
    String port = app.getEnvironment().getProperty("local.server.port");
    this.endpoint = URI.create("http://127.0.0.1:" + port + "/actuator/chash");
  }

  /**
   * {@return the application started with {@code chash} exposed over HTTP}
   *
   * @param application its configuration class
   * @param properties more properties, {@code name=value}
   */
  static EndpointHttp start(Class<?> application, String... properties) {
    return new EndpointHttp(
        new SpringApplicationBuilder(application)
            .web(WebApplicationType.SERVLET)
            .properties("server.port=0", "management.endpoints.web.exposure.include=chash")
            .properties(properties)
            .run());
  }

  ShardedCacheManager manager() {
    return app.getBean(ShardedCacheManager.class);
  }

  HttpResponse<String> get() throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(endpoint).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String json) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(endpoint)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    app.close();
  }
}
