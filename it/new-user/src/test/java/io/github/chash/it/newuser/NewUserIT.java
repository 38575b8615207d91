package io.github.chash.it.newuser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.chash.redis.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A new user's first hour, from the documentation only (issue 45).
 *
 * <p>Once: a local Maven repository without chash in it, and the README's install command, as the
 * README gives it, run in a copy of this checkout's tracked sources (a git repository of one
 * commit, as a clone is one). Then for each Spring Boot version of the Spring Boot page's
 * "Supported versions" table: a new application whose POM properties and dependencies, {@code
 * chash.yaml}, {@code application.properties} and service are the page's snippets (the fenced
 * blocks marked {@code <!-- NewUserIT: name -->}, so a change of the page changes what is built),
 * built against that repository and run with {@code java -jar} on three real {@code redis-server}s:
 * the second call is a hit, an evict makes the next call load again, and a bad POST to {@code
 * /actuator/chash} answers 400 with its reason.
 *
 * <p>The test adds only what the page tells the user to have or write around its snippets: a Boot
 * web application with actuator ({@code spring-boot-starter-parent}, the web and actuator starters,
 * Boot's Maven plugin for the jar), the {@code @SpringBootApplication} class with
 * {@code @EnableCaching}, and a controller that calls the service. Anything else it needed would be
 * missing from the page.
 *
 * <p>Third-party artifacts come from the local repository of the build running this test, as a
 * {@code file:} repository with snapshots turned off, so they are not downloaded again; chash's
 * (snapshots) can come only from the install. Logs and the generated projects stay in
 * target/new-user/.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NewUserIT {
  private static final Path ROOT =
      Path.of(System.getProperty("chash.root", "../..")).toAbsolutePath().normalize();
  private static final Path WORK = Path.of("target", "new-user").toAbsolutePath();
  private static final Path README = ROOT.resolve("README.md");
  private static final Path PAGE = ROOT.resolve("src-site/markdown/spring-boot.md");

  /**
   * The install (the whole reactor, no tests) took 71 to 167 s on 2 cores at load averages of 6 to
   * 15, and 322 s at 15 before MAVEN_OPTS chose C1; the README reports 11 minutes on a busier
   * machine.
   */
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(25);

  private static final Duration APP_BUILD_TIMEOUT = Duration.ofMinutes(8);
  private static final Duration APP_START_TIMEOUT = Duration.ofMinutes(3);

  /** A guard against a hung application, not a latency claim (first requests on a busy machine). */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  /** The local repository of the user: empty, then what the install and the app builds put in. */
  private Path repository;

  private Path settings;

  /** The copy of the sources the install ran in: its wrapper builds the applications too. */
  private Path chash;

  @BeforeAll
  void freshRepositoryAndTheDocumentedInstall() throws Exception {
    deleteTree(WORK);
    Files.createDirectories(WORK);
    repository = Files.createDirectories(WORK.resolve("repository"));
    settings = writeSettings();
    long copying = System.nanoTime();
    chash = copySources(WORK.resolve("chash"));
    System.out.printf(
        "NewUserIT: the copy of the sources took %d s%n",
        (System.nanoTime() - copying) / 1_000_000_000);

    assertThat(repository.resolve("io/github/chash"))
        .as("the new user's local repository holds no chash before the install")
        .doesNotExist();

    assertThat(between(snippet(README, "chash-version"), "<properties>", "</properties>"))
        .as("the README's chash.version is the Spring Boot page's")
        .isEqualTo(between(snippet(PAGE, "chash-version"), "<properties>", "</properties>"));
    String install = snippet(README, "install").strip();
    assertThat(install).as("the README's install snippet is one command").doesNotContain("\n");
    assertThat(Files.readString(PAGE))
        .as("the Spring Boot page gives the README's install command")
        .contains("`" + install + "`");
    List<String> command = new ArrayList<>(Arrays.asList(install.split(" +")));
    assertThat(command.get(0)).isEqualTo("./mvnw");
    command.set(0, chash.resolve("mvnw").toString());
    command.addAll(userRepository());

    long start = System.nanoTime();
    run("install", chash, command, INSTALL_TIMEOUT);
    System.out.printf(
        "NewUserIT: %s took %d s%n", install, (System.nanoTime() - start) / 1_000_000_000);

    for (String module : List.of("chash-spring-boot-starter", "chash-redis", "chash-bom")) {
      Path installed = repository.resolve("io/github/chash").resolve(module);
      assertThat(installed.resolve(chashVersion()).resolve("maven-metadata-local.xml"))
          .as("%s installed by the install step", module)
          .exists();
    }
  }

  /** The Spring Boot versions of the page's first "Supported versions" table, newest first. */
  Stream<String> bootVersions() throws IOException {
    String page = Files.readString(PAGE);
    int table = page.indexOf("## Supported versions");
    assertThat(table).as("a Supported versions section in %s", PAGE).isNotNegative();
    String section = page.substring(table, page.indexOf("\n## ", table + 1));
    Matcher row = Pattern.compile("(?m)^\\| (\\d+\\.\\d+\\.\\d+) \\|").matcher(section);
    List<String> versions = new ArrayList<>();
    while (row.find() && !versions.contains(row.group(1))) {
      versions.add(row.group(1));
    }
    assertThat(versions).as("Boot versions in the table").hasSizeGreaterThanOrEqualTo(2);
    return versions.stream().sorted(Comparator.reverseOrder());
  }

  @ParameterizedTest(name = "Spring Boot {0}")
  @MethodSource("bootVersions")
  void theSpringBootPagesApplication_onThreeRedisServers(String boot) throws Exception {
    List<RedisServerProcess> servers = new ArrayList<>();
    Process app = null;
    try {
      for (int i = 0; i < 3; i++) {
        servers.add(RedisServerProcess.start());
      }
      Path project = writeApplication(WORK.resolve("app-" + boot), boot, servers);

      long start = System.nanoTime();
      List<String> build = new ArrayList<>(List.of(chash.resolve("mvnw").toString(), "package"));
      build.addAll(userRepository());
      run("app-" + boot + "-build", project, build, APP_BUILD_TIMEOUT);
      long built = System.nanoTime();
      assertChashOnlyInstalled();

      Path log = WORK.resolve("logs").resolve("app-" + boot + "-run.log");
      app =
          new ProcessBuilder(
                  javaCommand(),
                  "-XX:TieredStopAtLevel=1",
                  "-jar",
                  project.resolve("target/demo-0.0.1-SNAPSHOT.jar").toString(),
                  "--server.port=0",
                  "--server.address=127.0.0.1")
              .directory(project.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      int port = awaitPort(app, log);
      awaitConnected(servers);
      long started = System.nanoTime();

      exercise(port, log, servers);
      System.out.printf(
          "NewUserIT: Spring Boot %s: build %d s, start %d s, calls %d s%n",
          boot,
          (built - start) / 1_000_000_000,
          (started - built) / 1_000_000_000,
          (System.nanoTime() - started) / 1_000_000_000);
    } finally {
      if (app != null) {
        stop(app);
      }
      servers.forEach(RedisServerProcess::close);
    }
  }

  /**
   * Waits until the application holds a connection to each server (the test's own is the other
   * client): a cold JVM on a busy machine may take longer than the node's 1 s connect timeout at
   * startup, which chash logs as a warning and then keeps connecting, its calls misses until then.
   */
  private static void awaitConnected(List<RedisServerProcess> servers) throws InterruptedException {
    Pattern clients = Pattern.compile("connected_clients:(\\d+)");
    long deadline = System.nanoTime() + APP_START_TIMEOUT.toNanos();
    for (RedisServerProcess server : servers) {
      while (true) {
        Matcher m = clients.matcher(String.valueOf(server.command("INFO", "clients")));
        assertThat(m.find()).as("connected_clients in INFO of %s", server).isTrue();
        if (Integer.parseInt(m.group(1)) >= 2) {
          break;
        }
        assertThat(System.nanoTime())
            .as("the application connected to %s within %s", server, APP_START_TIMEOUT)
            .isLessThan(deadline);
        Thread.sleep(100);
      }
    }
  }

  /** The calls a new user makes: find twice, evict, find again, and a drain of no such node. */
  private void exercise(int port, Path log, List<RedisServerProcess> servers) throws Exception {
    String base = "http://127.0.0.1:" + port;
    JsonNode before = products(base);

    JsonNode first = JSON.readTree(send("GET", base + "/products/7", null, 200));
    assertThat(first.path("name").asText()).isEqualTo("product 7");
    JsonNode afterFirst = products(base);
    assertThat(count(afterFirst, "misses") - count(before, "misses"))
        .as("the first call misses")
        .isEqualTo(1);
    assertThat(servers.stream().mapToInt(s -> s.keys("chash:products:*").size()).sum())
        .as("the value is stored on one of the three servers")
        .isEqualTo(1);

    JsonNode second = JSON.readTree(send("GET", base + "/products/7", null, 200));
    assertThat(second).as("the second call's value").isEqualTo(first);
    JsonNode afterSecond = products(base);
    assertThat(count(afterSecond, "hits") - count(afterFirst, "hits"))
        .as("the second call is a hit")
        .isEqualTo(1);
    assertThat(count(afterSecond, "misses")).isEqualTo(count(afterFirst, "misses"));

    send("DELETE", base + "/products/7", null, 200);
    JSON.readTree(send("GET", base + "/products/7", null, 200));
    JsonNode afterEvict = products(base);
    assertThat(count(afterEvict, "misses") - count(afterSecond, "misses"))
        .as("after the evict the next call misses (and loads again)")
        .isEqualTo(1);
    assertThat(count(afterEvict, "hits")).isEqualTo(count(afterSecond, "hits"));

    String unknown =
        send("POST", base + "/actuator/chash", "{\"node\": \"zz\", \"action\": \"drain\"}", 400);
    assertThat(JSON.readTree(unknown).path("error").asText()).startsWith("unknown node \"zz\"");
    String missing = send("POST", base + "/actuator/chash", "{\"action\": \"drain\"}", 400);
    assertThat(JSON.readTree(missing).path("error").asText()).startsWith("missing \"node\"");

    JsonNode ring = JSON.readTree(send("GET", base + "/actuator/chash", null, 200));
    assertThat(ring.path("nodes").findValuesAsText("state"))
        .as("nodes in %s", ring)
        .containsExactly("live", "live", "live");
    assertThat(ring.path("nodes").findValues("errors"))
        .as("errors of the nodes in %s", ring)
        .allMatch(errors -> errors.asLong() == 0);
    assertThat(Files.readString(log)).as("the application's log").doesNotContain(" ERROR ");
  }

  /** The products cache's entry of {@code /actuator/chash}. */
  private JsonNode products(String base) throws Exception {
    JsonNode ring = JSON.readTree(send("GET", base + "/actuator/chash", null, 200));
    for (JsonNode cache : ring.path("caches")) {
      if (cache.path("name").asText().equals("products")) {
        return cache;
      }
    }
    return fail("no products cache in /actuator/chash: " + ring);
  }

  private static long count(JsonNode cache, String name) {
    JsonNode value = cache.path("counts").path(name);
    assertThat(value.isNumber()).as("counts.%s in %s", name, cache).isTrue();
    return value.asLong();
  }

  private String send(String method, String url, String json, int status) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(REQUEST_TIMEOUT)
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode())
        .as("%s %s %s: %s", method, url, json == null ? "" : json, response.body())
        .isEqualTo(status);
    return response.body();
  }

  // ---- the application, from the page's snippets ------------------------------------------------

  private Path writeApplication(Path project, String boot, List<RedisServerProcess> servers)
      throws IOException {
    String properties = between(snippet(PAGE, "chash-version"), "<properties>", "</properties>");
    String dependencies = snippet(PAGE, "dependencies");
    String pom =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0"
                 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                 xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
          <modelVersion>4.0.0</modelVersion>
          <parent>
            <groupId>org.springframework.boot</groupId>
            <artifactId>spring-boot-starter-parent</artifactId>
            <version>%s</version>
            <relativePath/>
          </parent>
          <groupId>com.example</groupId>
          <artifactId>demo</artifactId>
          <version>0.0.1-SNAPSHOT</version>
          <properties>
            <java.version>17</java.version>
        %s
          </properties>
          <dependencies>
            <dependency>
              <groupId>org.springframework.boot</groupId>
              <artifactId>spring-boot-starter-web</artifactId>
            </dependency>
            <dependency>
              <groupId>org.springframework.boot</groupId>
              <artifactId>spring-boot-starter-actuator</artifactId>
            </dependency>
        %s
          </dependencies>
          <build>
            <plugins>
              <plugin>
                <groupId>org.springframework.boot</groupId>
                <artifactId>spring-boot-maven-plugin</artifactId>
              </plugin>
            </plugins>
          </build>
        </project>
        """
            .formatted(boot, indent(properties, 4), indent(dependencies, 4));
    write(project.resolve("pom.xml"), pom);

    // the page's nodes, at the test's servers: redis://10.0.0.N:6379 is the N-th server
    Matcher address =
        Pattern.compile("redis://10\\.0\\.0\\.(\\d+):6379").matcher(snippet(PAGE, "chash-yaml"));
    StringBuilder yaml = new StringBuilder();
    int replaced = 0;
    while (address.find()) {
      address.appendReplacement(
          yaml,
          Matcher.quoteReplacement(servers.get(Integer.parseInt(address.group(1)) - 1).uri()));
      replaced++;
    }
    address.appendTail(yaml);
    assertThat(replaced).as("the page's chash.yaml names three Redis servers").isEqualTo(3);
    write(project.resolve("src/main/resources/chash.yaml"), yaml.toString());
    write(
        project.resolve("src/main/resources/application.properties"),
        snippet(PAGE, "application-properties"));

    Path code = project.resolve("src/main/java/com/example/demo");
    write(
        code.resolve("ProductService.java"),
        "package com.example.demo;\n\n" + snippet(PAGE, "service"));
    write(
        code.resolve("DemoApplication.java"),
        """
        package com.example.demo;

        import org.springframework.boot.SpringApplication;
        import org.springframework.boot.autoconfigure.SpringBootApplication;
        import org.springframework.cache.annotation.EnableCaching;

        @SpringBootApplication
        @EnableCaching
        public class DemoApplication {
          public static void main(String[] args) {
            SpringApplication.run(DemoApplication.class, args);
          }
        }
        """);
    write(
        code.resolve("ProductController.java"),
        """
        package com.example.demo;

        import org.springframework.web.bind.annotation.DeleteMapping;
        import org.springframework.web.bind.annotation.GetMapping;
        import org.springframework.web.bind.annotation.PathVariable;
        import org.springframework.web.bind.annotation.RestController;

        @RestController
        class ProductController {
          private final ProductService products;

          ProductController(ProductService products) {
            this.products = products;
          }

          @GetMapping("/products/{id}")
          Product find(@PathVariable("id") long id) {
            return products.find(id);
          }

          @DeleteMapping("/products/{id}")
          void delete(@PathVariable("id") long id) {
            products.delete(id);
          }
        }
        """);
    return project;
  }

  /**
   * The fenced block right after the line {@code <!-- NewUserIT: name -->} in {@code page}, without
   * the indentation of its fence; fails unless there is exactly one such marker.
   */
  static String snippet(Path page, String name) throws IOException {
    List<String> lines = Files.readAllLines(page);
    String marker = "<!-- NewUserIT: " + name + " -->";
    int at = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(marker)) {
        assertThat(at).as("%s once in %s", marker, page).isNegative();
        at = i;
      }
    }
    assertThat(at).as("%s in %s", marker, page).isNotNegative();
    Matcher fence =
        Pattern.compile("^( *)```\\w*\\s*$")
            .matcher(at + 1 < lines.size() ? lines.get(at + 1) : "");
    assertThat(fence.matches())
        .as("%s:%d: %s is followed by a fenced block", page, at + 2, marker)
        .isTrue();
    String indent = fence.group(1);
    StringBuilder block = new StringBuilder();
    for (int i = at + 2; ; i++) {
      assertThat(i).as("%s: the block after %s ends", page, marker).isLessThan(lines.size());
      String line = lines.get(i);
      if (line.strip().equals("```")) {
        return block.toString();
      }
      block.append(line.startsWith(indent) ? line.substring(indent.length()) : line.strip());
      block.append('\n');
    }
  }

  private static String between(String text, String open, String close) {
    int start = text.indexOf(open);
    int end = text.indexOf(close, start);
    assertThat(start).as("%s in %s", open, text).isNotNegative();
    assertThat(end).as("%s in %s", close, text).isNotNegative();
    return text.substring(start + open.length(), end).strip();
  }

  private static String indent(String text, int spaces) {
    return text.strip()
        .lines()
        .map(l -> " ".repeat(spaces) + l)
        .reduce((a, b) -> a + "\n" + b)
        .orElse("");
  }

  private static String chashVersion() throws IOException {
    return between(snippet(PAGE, "chash-version"), "<chash.version>", "</chash.version>");
  }

  // ---- the user's Maven: a fresh local repository ----------------------------------------------

  /**
   * Every chash file in the user's repository came from the install (Maven Resolver records an
   * installed file as {@code name>=}, a downloaded one as {@code name>repository=}): the build
   * found none elsewhere, even once chash has releases in this build's repository.
   */
  private void assertChashOnlyInstalled() throws IOException {
    List<String> origins;
    try (Stream<Path> files = Files.walk(repository.resolve("io/github/chash"))) {
      origins =
          files
              .filter(f -> f.getFileName().toString().equals("_remote.repositories"))
              .flatMap(
                  f -> {
                    try {
                      return Files.readAllLines(f).stream().filter(l -> !l.startsWith("#"));
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  })
              .toList();
    }
    assertThat(origins).isNotEmpty().allMatch(l -> l.endsWith(">="), "installed, not downloaded");
  }

  /** What each Maven command of the user gets besides its own arguments. */
  private List<String> userRepository() {
    return List.of("-B", "-ntp", "-s", settings.toString(), "-Dmaven.repo.local=" + repository);
  }

  /**
   * Settings whose one repository before Maven Central is this build's local repository, for
   * releases only: third-party artifacts are not downloaded again, and no chash snapshot is found
   * there. A local repository keeps no checksum files: they were checked when the artifacts were
   * downloaded into it, and are not looked for here.
   */
  private static Path writeSettings() throws IOException {
    String local = System.getProperty("chash.thirdPartyRepository");
    assertThat(local).as("system property chash.thirdPartyRepository").isNotBlank();
    String url = Path.of(local).toAbsolutePath().toUri().toString();
    String repository =
        """
            <id>third-party-cache</id>
            <url>%s</url>
            <releases><enabled>true</enabled><checksumPolicy>ignore</checksumPolicy></releases>
            <snapshots><enabled>false</enabled></snapshots>
        """
            .formatted(url);
    return write(
        WORK.resolve("settings.xml"),
        """
        <settings>
          <profiles>
            <profile>
              <id>third-party-cache</id>
              <repositories><repository>
        %s      </repository></repositories>
              <pluginRepositories><pluginRepository>
        %s      </pluginRepository></pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles><activeProfile>third-party-cache</activeProfile></activeProfiles>
        </settings>
        """
            .formatted(repository, repository));
  }

  /**
   * A copy of the checkout's tracked (and new, not ignored) files as they are in the work tree: a
   * clone's content, with edits not yet committed, and no target/ directories.
   */
  private static Path copySources(Path to) throws Exception {
    Path list = WORK.resolve("files.txt");
    Process git =
        new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
            .directory(ROOT.toFile())
            .redirectOutput(list.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    assertThat(git.waitFor(2, TimeUnit.MINUTES)).as("git ls-files finished").isTrue();
    assertThat(git.exitValue()).as("git ls-files in %s", ROOT).isZero();
    int copied = 0;
    for (String name : Files.readString(list, StandardCharsets.UTF_8).split("\0")) {
      Path from = ROOT.resolve(name);
      if (name.isEmpty()
          || Arrays.asList(name.split("/")).contains("target")
          || !Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        continue; // deleted in the work tree, or build output
      }
      Path target = to.resolve(name);
      Files.createDirectories(target.getParent());
      Files.copy(from, target, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      copied++;
    }
    assertThat(copied).as("files copied from %s", ROOT).isGreaterThan(100);
    assertThat(to.resolve("mvnw")).isExecutable();
    // a repository of its own with those files committed on main, as in a fresh clone: the
    // sample's chash:check compares with main, and git finds this repository, not the checkout
    // the copy lies in
    Duration gitTimeout = Duration.ofMinutes(2);
    run("git-init", to, List.of("git", "-c", "init.defaultBranch=main", "init", "-q"), gitTimeout);
    run("git-add", to, List.of("git", "add", "-A"), gitTimeout);
    run(
        "git-commit",
        to,
        List.of(
            "git",
            "-c",
            "user.name=NewUserIT",
            "-c",
            "user.email=new-user@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            "the checkout's files"),
        gitTimeout);
    return to;
  }

  // ---- processes ----------------------------------------------------------------------------

  /**
   * Runs a command to its end within {@code timeout}; fails with its log's tail unless it exits 0.
   */
  private static void run(String name, Path dir, List<String> command, Duration timeout)
      throws Exception {
    Path log = Files.createDirectories(WORK.resolve("logs")).resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // the JVM options the invoker projects' Maven runs with: C1 only and the serial collector,
    // quicker for builds of a few minutes on 2 cores; the command line stays the README's
    builder.environment().put("MAVEN_OPTS", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    Process process = builder.start();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("%s did not finish in %s: %s%n%s", name, timeout, command, tail(log));
      }
      if (process.exitValue() != 0) {
        fail("%s exited %d: %s%n%s", name, process.exitValue(), command, tail(log));
      }
    } finally {
      stop(process);
    }
  }

  /** The port the application logs it listens on, once it does; fails if it exits first. */
  private static int awaitPort(Process app, Path log) throws Exception {
    Pattern started = Pattern.compile("Tomcat started on port (\\d+)");
    long deadline = System.nanoTime() + APP_START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = started.matcher(Files.readString(log));
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      if (app.waitFor(200, TimeUnit.MILLISECONDS)) {
        fail("the application exited %d before it listened:%n%s", app.exitValue(), tail(log));
      }
    }
    return fail("the application did not listen within %s:%n%s", APP_START_TIMEOUT, tail(log));
  }

  /** Ends a process and its children: SIGTERM, then SIGKILL after 30 s. */
  private static void stop(Process process) throws InterruptedException {
    List<ProcessHandle> children = process.descendants().toList();
    children.forEach(ProcessHandle::destroy);
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    children.forEach(ProcessHandle::destroyForcibly);
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static String javaCommand() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Path write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
