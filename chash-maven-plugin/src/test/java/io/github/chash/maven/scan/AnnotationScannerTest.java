package io.github.chash.maven.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnnotationScannerTest {
  /** The annotations as the aspect declares them (same names and attributes), compiled here. */
  private static final Map<String, String> ANNOTATIONS =
      Map.of(
          "ShardedCacheable",
          "@java.lang.annotation.Repeatable(ShardedCacheable.List.class)"
              + " public @interface ShardedCacheable { String cache() default \"\";"
              + " String key() default \"\"; String condition() default \"\";"
              + " String unless() default \"\"; String ttl() default \"\";"
              + " boolean sync() default false; boolean cacheNull() default false;"
              + " @RUNTIME @interface List { ShardedCacheable[] value(); } }",
          "ShardedCachePut",
          "@java.lang.annotation.Repeatable(ShardedCachePut.List.class)"
              + " public @interface ShardedCachePut { String cache() default \"\";"
              + " String key() default \"\"; String condition() default \"\";"
              + " String unless() default \"\"; String ttl() default \"\";"
              + " @RUNTIME @interface List { ShardedCachePut[] value(); } }",
          "ShardedCacheEvict",
          "@java.lang.annotation.Repeatable(ShardedCacheEvict.List.class)"
              + " public @interface ShardedCacheEvict { String cache() default \"\";"
              + " String key() default \"\"; String condition() default \"\";"
              + " boolean beforeInvocation() default false; boolean allEntries() default false;"
              + " @RUNTIME @interface List { ShardedCacheEvict[] value(); } }",
          "ShardedCacheConfig",
          "public @interface ShardedCacheConfig { String cache() default \"\";"
              + " String ttl() default \"\"; }");

  private static final String ORDER_SERVICE =
      """
      package com.acme;
      import io.github.chash.aspect.*;
      public class OrderService {
        @ShardedCacheable(cache = "orders", key = "#customer + ':' + #year")
        public String find(String customer, int year) { return customer; }
        @ShardedCacheable(cache = "orders", key = "#p1")
        public String byIndex(String customer, int year) { return customer; }
        @ShardedCachePut(cache = "users", key = "#user.id")
        public Object save(Object user) { return user; }
        @ShardedCacheEvict(cache = "users")
        public void delete(long id) {}
        @ShardedCacheable(cache = "orderz", key = "#custmer.id")
        public String typo(String customer) { return customer; }
        @ShardedCacheable(cache = "orders", key = "#p2")
        public String outOfRange(String customer, int year) { return customer; }
        @ShardedCacheable(cache = "orders", key = "'a' + + #customer")
        public String syntax(String customer) { return customer; }
        @ShardedCacheable(cache = "orders", ttl = "10x")
        public String badTtl(String customer) { return customer; }
        @ShardedCachePut(cache = "orders")
        public void putNothing(String customer) {}
        public String plain(String customer) { return customer; }
        @ShardedCacheable(cache = "orders", condition = "#year >= 2000 and #customer != null",
            unless = "#result == null")
        public String conditional(String customer, long year) { return customer; }
        @ShardedCacheable(cache = "orders", condition = "#result != null")
        public String resultTooEarly(String customer) { return customer; }
        @ShardedCachePut(cache = "orders", key = "#result.id", unless = "#result.draft")
        public Object putByResult(String customer) { return customer; }
        @ShardedCacheEvict(cache = "users", key = "#id")
        @ShardedCacheEvict(cache = "invoices", allEntries = true)
        public void evictTwo(long id) {}
        @ShardedCacheEvict(cache = "orders", key = "#id", allEntries = true)
        public void allWithKey(long id) {}
        @ShardedCacheable(cache = "orders", unless = "#result &&")
        public String badUnless(String customer) { return customer; }
        @ShardedCacheable
        public String noCache(String customer) { return customer; }
        @ShardedCacheable(cache = "orders", key = "#root.methodName + #root.args")
        public String rooted(String customer) { return customer; }
      }
      """;

  private static final String CATALOG_SERVICE =
      """
      package com.acme;
      import io.github.chash.aspect.*;
      @ShardedCacheConfig(cache = "orders", ttl = "2h")
      public class CatalogService {
        @ShardedCacheable(key = "#sku")
        public String item(String sku) { return sku; }
        @ShardedCacheEvict(cache = "users", key = "#sku")
        public void drop(String sku) {}
      }
      """;

  private static final String BROKEN_DEFAULTS =
      """
      package com.acme;
      import io.github.chash.aspect.*;
      @ShardedCacheConfig(cache = "prodcts", ttl = "2 hours")
      public class BrokenDefaults {
        @ShardedCacheable(key = "#p0")
        public String item(String sku) { return sku; }
      }
      """;

  @TempDir Path dir;

  private static ChashConfig config() {
    return ChashConfigs.parse(
        """
        nodes:
          - id: a
            type: local
        caches:
          orders: { ttl: 10m }
          users: {}
        """,
        "chash.yaml");
  }

  /** Compiles the annotations and services with the given javac options into a new directory. */
  private Path compile(String... options) throws IOException {
    Path src = dir.resolve("src");
    Path out = dir.resolve("out" + String.join("", options).replace(':', '_'));
    Files.createDirectories(src.resolve("io/github/chash/aspect"));
    Files.createDirectories(src.resolve("com/acme"));
    Files.createDirectories(out);
    List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-proc:none"));
    args.addAll(List.of(options));
    for (var a : ANNOTATIONS.entrySet()) {
      Path file = src.resolve("io/github/chash/aspect/" + a.getKey() + ".java");
      Files.writeString(
          file,
          "package io.github.chash.aspect;\n"
              + "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)\n"
              + a.getValue()
                  .replace(
                      "@RUNTIME",
                      "@java.lang.annotation.Retention("
                          + "java.lang.annotation.RetentionPolicy.RUNTIME)")
              + "\n");
      args.add(file.toString());
    }
    for (var service :
        Map.of(
                "OrderService", ORDER_SERVICE,
                "CatalogService", CATALOG_SERVICE,
                "BrokenDefaults", BROKEN_DEFAULTS)
            .entrySet()) {
      Path file = src.resolve("com/acme/" + service.getKey() + ".java");
      Files.writeString(file, service.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, args.toArray(new String[0]))).isZero();
    return out;
  }

  /** The rule chash.yaml's ttls are read with, as its message tail for a ttl written as text. */
  private static String ttlProblem(String text) {
    try {
      CacheConfig.parseTtl(text, "ttl");
    } catch (IllegalArgumentException e) {
      return e.getMessage().substring("ttl ".length());
    }
    throw new AssertionError(text + " is a valid ttl");
  }

  private static List<String> lines(List<ScanProblem> problems) {
    return problems.stream().map(ScanProblem::toString).toList();
  }

  private static final List<String> PROBLEMS_WITH_NAMES =
      List.of(
          "com.acme.OrderService.typo(String): @ShardedCacheable key expression \"#custmer.id\""
              + " at position 1: no parameter named custmer; parameters are: customer",
          "com.acme.OrderService.typo(String): @ShardedCacheable names cache \"orderz\", which"
              + " chash.yaml does not define; caches are: orders, users",
          "com.acme.OrderService.outOfRange(String, int): @ShardedCacheable key expression"
              + " \"#p2\" at position 1: no parameter #p2; the method has 2 parameters (#p0 to"
              + " #p1)",
          "com.acme.OrderService.syntax(String): @ShardedCacheable key expression \"'a' + +"
              + " #customer\" at position 7: expected '#parameter' or a quoted literal, found '+'",
          "com.acme.OrderService.badTtl(String): @ShardedCacheable ttl " + ttlProblem("10x"),
          "com.acme.OrderService.putNothing(String): @ShardedCachePut on a void method: there"
              + " is no result to store",
          "com.acme.OrderService.resultTooEarly(String): @ShardedCacheable condition \"#result"
              + " != null\" at position 1: #result is not available in the condition of"
              + " @ShardedCacheable: it is tested before the method runs; use unless",
          "com.acme.OrderService.evictTwo(long): @ShardedCacheEvict names cache \"invoices\","
              + " which chash.yaml does not define; caches are: orders, users",
          "com.acme.OrderService.allWithKey(long): @ShardedCacheEvict allEntries = true clears"
              + " the whole cache and takes no key; was \"#id\"",
          "com.acme.OrderService.badUnless(String): @ShardedCacheable unless \"#result &&\" at"
              + " position 9: found '&&'; write and",
          "com.acme.OrderService.noCache(String): @ShardedCacheable needs a cache name: set"
              + " cache on it, or @ShardedCacheConfig(cache = ...) on the class; was \"\"",
          "com.acme.BrokenDefaults.item(String): @ShardedCacheConfig ttl " + ttlProblem("2 hours"),
          "com.acme.BrokenDefaults.item(String): @ShardedCacheable names cache \"prodcts\","
              + " which chash.yaml does not define; caches are: orders, users");

  @Test
  void scan_withParameterNamesReportsEveryBadAnnotationWithClassAndMethod() throws IOException {
    assertThat(lines(AnnotationScanner.scan(compile("-parameters"), config())))
        .containsExactlyInAnyOrderElementsOf(PROBLEMS_WITH_NAMES);
  }

  @Test
  void scan_debugInformationAloneGivesTheNamesAsTheWeaverReadsThem() throws IOException {
    // Maven's default javac options: -g, no -parameters; AspectJ weaving reads these names too.
    assertThat(lines(AnnotationScanner.scan(compile("-g"), config())))
        .containsExactlyInAnyOrderElementsOf(PROBLEMS_WITH_NAMES);
  }

  @Test
  void scan_withoutAnyParameterNamesFlagsNamedReferencesButNotIndexes() throws IOException {
    List<String> problems = lines(AnnotationScanner.scan(compile("-g:none"), config()));
    assertThat(problems)
        .contains(
            "com.acme.OrderService.find(String, int): @ShardedCacheable key expression"
                + " \"#customer + ':' + #year\" at position 1: no parameter named customer;"
                + " parameter names are not in the class file: compile with -parameters"
                + " (maven-compiler-plugin <parameters>true</parameters>; Spring proxies need it,"
                + " AspectJ weaving also reads javac's debug information) or use #p0 to #p1",
            "com.acme.OrderService.conditional(String, long): @ShardedCacheable condition"
                + " \"#year >= 2000 and #customer != null\" at position 1: no parameter named"
                + " year; parameter names are not in the class file: compile with -parameters"
                + " (maven-compiler-plugin <parameters>true</parameters>; Spring proxies need it,"
                + " AspectJ weaving also reads javac's debug information) or use #p0 to #p1")
        .noneMatch(p -> p.startsWith("com.acme.OrderService.byIndex("))
        .noneMatch(p -> p.startsWith("com.acme.OrderService.rooted("));
  }

  @Test
  void scan_classDefaultsAndRepeatedAnnotationsPassWhenRight() throws IOException {
    assertThat(lines(AnnotationScanner.scan(compile("-g"), config())))
        .noneMatch(p -> p.startsWith("com.acme.CatalogService."))
        .noneMatch(p -> p.startsWith("com.acme.OrderService.conditional("))
        .noneMatch(p -> p.startsWith("com.acme.OrderService.putByResult("))
        .noneMatch(p -> p.contains("evictTwo") && p.contains("\"users\""));
  }

  @Test
  void scan_missingDirectoryHasNoProblems() {
    assertThat(AnnotationScanner.scan(dir.resolve("nothing"), config())).isEmpty();
  }
}
