package io.github.chash.maven.scan;

import static org.assertj.core.api.Assertions.assertThat;

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
          "String cache(); String key() default \"\"; String ttl() default \"\";"
              + " boolean sync() default false; boolean cacheNull() default false;",
          "ShardedCachePut",
          "String cache(); String key() default \"\";",
          "ShardedCacheEvict",
          "String cache(); String key() default \"\"; boolean beforeInvocation() default false;");

  private static final String SERVICE =
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

  private Path compile(boolean parameters) throws IOException {
    Path src = dir.resolve("src");
    Path out = dir.resolve(parameters ? "with-names" : "without-names");
    Files.createDirectories(src.resolve("io/github/chash/aspect"));
    Files.createDirectories(src.resolve("com/acme"));
    Files.createDirectories(out);
    List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-proc:none"));
    if (parameters) {
      args.add("-parameters");
    }
    for (var a : ANNOTATIONS.entrySet()) {
      Path file = src.resolve("io/github/chash/aspect/" + a.getKey() + ".java");
      Files.writeString(
          file,
          "package io.github.chash.aspect;\n"
              + "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)\n"
              + "public @interface "
              + a.getKey()
              + " { "
              + a.getValue()
              + " }\n");
      args.add(file.toString());
    }
    Path service = src.resolve("com/acme/OrderService.java");
    Files.writeString(service, SERVICE);
    args.add(service.toString());
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, args.toArray(new String[0]))).isZero();
    return out;
  }

  private static List<String> lines(List<ScanProblem> problems) {
    return problems.stream().map(ScanProblem::toString).toList();
  }

  @Test
  void scan_withParameterNamesReportsEveryBadAnnotationWithClassAndMethod() throws IOException {
    List<String> problems = lines(AnnotationScanner.scan(compile(true), config()));
    assertThat(problems)
        .containsExactlyInAnyOrder(
            "com.acme.OrderService.typo(String): @ShardedCacheable names cache \"orderz\", which"
                + " chash.yaml does not define; caches are: orders, users",
            "com.acme.OrderService.typo(String): @ShardedCacheable key expression \"#custmer.id\""
                + " at position 1: no parameter named custmer; parameters are: customer",
            "com.acme.OrderService.outOfRange(String, int): @ShardedCacheable key expression"
                + " \"#p2\" at position 1: no parameter #p2; the method has 2 parameters",
            "com.acme.OrderService.syntax(String): @ShardedCacheable key expression \"'a' + +"
                + " #customer\" at position 7: expected '#parameter' or a quoted literal, found '+'",
            "com.acme.OrderService.badTtl(String): @ShardedCacheable ttl \"10x\" is invalid: "
                + invalidTtlMessage(),
            "com.acme.OrderService.putNothing(String): @ShardedCachePut on a void method: there"
                + " is no result to cache");
  }

  @Test
  void scan_withoutParameterNamesFlagsNamedReferencesButNotIndexes() throws IOException {
    List<String> problems = lines(AnnotationScanner.scan(compile(false), config()));
    assertThat(problems)
        .contains(
            "com.acme.OrderService.find(String, int): @ShardedCacheable key expression"
                + " \"#customer + ':' + #year\" at position 1: parameter names are not in the class"
                + " file: compile with -parameters (maven-compiler-plugin"
                + " <parameters>true</parameters>) or use #p0 to #p1",
            "com.acme.OrderService.save(Object): @ShardedCachePut key expression \"#user.id\" at"
                + " position 1: parameter names are not in the class file: compile with -parameters"
                + " (maven-compiler-plugin <parameters>true</parameters>) or use #p0")
        .noneMatch(p -> p.startsWith("com.acme.OrderService.byIndex("));
  }

  @Test
  void scan_missingDirectoryHasNoProblems() {
    assertThat(AnnotationScanner.scan(dir.resolve("nothing"), config())).isEmpty();
  }

  private static String invalidTtlMessage() {
    try {
      io.github.chash.config.Durations.parse("10x");
      throw new AssertionError("10x parsed");
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }
}
