package io.github.chash.config;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile and broken input always ends in a {@link ConfigException} whose every problem has a
 * location, never in another exception, an error or a hang.
 */
class MalformedInputTest {

  static List<String> malformed() {
    return List.of(
        "nodes: [{id: \"a}]\n", // unclosed double quote
        "nodes:\n  - id: 'a\n", // unclosed single quote
        "nodes:\n  - id: a\n   weight: 1\n", // bad indentation
        "nodes:\n    - id: a\n  - id: b\n", // dedented list item
        "nodes:\n\t- id: a\n", // tab indentation
        "nodes: [{id: a}\n", // unclosed flow sequence
        "nodes: {id: a\n", // unclosed flow mapping
        "nodes: [{id: a}]\n---\nnodes: [{id: b}]\n", // two documents
        "nodes: *undefined\n", // unknown alias
        "nodes: &a [*a]\n", // recursive alias
        "nodes: [{id: a}]\nring: &r {hash: xxh3}\nfailover: *r\n", // alias of the wrong block
        "nodes: [{id: a}]\nring: !!python/object:os.system {}\n", // foreign tag
        "nodes: [{id: !custom a}]\nring: {algorithm: !!binary cmluZw==}\n",
        "nodes: [{id: a}]\nring: {hash: xxh3, hash: md5}\n", // duplicate key
        "nodes: [{id: a}]\nnodes: [{id: b}]\n", // duplicate top-level key
        "nodes: [{id: \"\u0000\"}]\n", // NUL character
        "nodes: [{id: a}]\n\u0007\n", // control character
        "%YAML 9.9\n---\nnodes: []\n", // unsupported version
        "nodes:\n  - id: a\n  weight: 1\n  - id: b\n", // mixed list and mapping
        "? - a\n: b\n", // complex key at top level
        "{[a]: 1}\n",
        "nodes: [{id: a, weight: 99999999999999999999}]\n", // integer overflow
        "nodes: [{id: a, weight: .inf}]\ncheck: {maxSkew: .nan}\n",
        "[",
        "]",
        "\"",
        "&",
        "*",
        "!",
        ":",
        "- - - -",
        "nodes",
        "~",
        "nodes: [{id: a}]\ncaches: {users: {ttl: [1]}}\n");
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void parse_malformed_throwsLocatedConfigException(String yaml) {
    assertLocatedConfigException(() -> ChashConfigs.parse(yaml, "chash.yaml"));
  }

  @Test
  void parse_tenMegabytes_isRejectedBySize() {
    String yaml = "nodes: [{id: a}]\n" + "#".repeat(10 * 1024 * 1024);

    assertThat(ConfigTesting.problems(yaml))
        .containsExactly(
            "chash.yaml:1:1: file is too large: 10485777 characters; a chash.yaml may have at most"
                + " 2097152 characters");
  }

  @Test
  void load_tenMegabyteFile_isRejectedBySize(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.write(file, new byte[10 * 1024 * 1024]);

    assertThat(ConfigTesting.problems(() -> ChashConfigs.load(file)))
        .containsExactly(
            "chash.yaml:1:1: file is too large: 10485760 bytes; a chash.yaml may have at most"
                + " 2097152 characters");
  }

  @Test
  void parse_tenThousandOpenBrackets_stopsAtTheDepthLimit() {
    assertThat(ConfigTesting.problems("[".repeat(10_000)))
        .containsExactly("chash.yaml:1:65: nesting is deeper than 64 levels");
  }

  @Test
  void parse_deepFlowMappings_stopsAtTheDepthLimit() {
    assertLocatedConfigException(
        () -> ChashConfigs.parse("{a: ".repeat(10_000) + "1" + "}".repeat(10_000), "chash.yaml"));
  }

  @Test
  void parse_deepBlockNesting_stopsAtTheDepthLimit() {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      yaml.append(" ".repeat(i)).append("a:\n");
    }
    assertLocatedConfigException(() -> ChashConfigs.parse(yaml.toString(), "chash.yaml"));
    assertLocatedConfigException(() -> ChashConfigs.parse("- ".repeat(10_000) + "x", "chash.yaml"));
  }

  @Test
  void parse_billionLaughs_stopsAtTheAliasLimit() {
    StringBuilder yaml =
        new StringBuilder(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    char previous = 'a';
    for (char c = 'b'; c <= 'j'; c++) {
      yaml.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        yaml.append(i == 0 ? "" : ",").append('*').append(previous);
      }
      yaml.append("]\n");
      previous = c;
    }
    yaml.append("nodes: *j\n");

    assertThat(ConfigTesting.problems(yaml.toString()))
        .containsExactly(
            "chash.yaml:5:8: aliases stand for more than 10000 values in all (at *d); write large"
                + " blocks out instead of repeating them");
  }

  /**
   * Twenty merges of a 3,000-entry mapping made 60,000 entries, and fifty of a 100,000-entry one
   * ran out of memory (found by ConfigFuzzTest): aliases may stand for 10,000 values in all,
   * counted on events before anything is merged.
   */
  @Test
  void parse_mergesOfALargeMapping_areRefusedAtTheAliasOverTheLimit() {
    StringBuilder yaml = new StringBuilder("x: &a {");
    for (int i = 0; i < 3000; i++) {
      yaml.append(i == 0 ? "" : ", ").append('k').append(i).append(": 1");
    }
    yaml.append("}\nnodes: [{id: a}]\ncaches:\n");
    for (int i = 0; i < 20; i++) {
      yaml.append("  c").append(i).append(": {<<: *a}\n");
    }

    assertThat(ConfigTesting.problems(yaml.toString()))
        .containsExactly(
            "chash.yaml:5:12: aliases stand for more than 10000 values in all (at *a); write large"
                + " blocks out instead of repeating them");
  }

  @Test
  void parse_aliasesOfALargeList_areRefusedAtTheAliasOverTheLimit() {
    String list = "[" + "a.b, ".repeat(4000) + "]";

    assertThat(
            ConfigTesting.problems(
                "nodes: [{id: a}]\nredis: {allow: &l "
                    + list
                    + "}\nmemcached: {allow: [*l, *l, *l]}\n"))
        .containsExactly(
            "chash.yaml:3:29: aliases stand for more than 10000 values in all (at *l); write large"
                + " blocks out instead of repeating them");
  }

  /**
   * SnakeYAML Engine threw NumberFormatException, without a location, for a hexadecimal escape cut
   * by the end of the file or beyond int range (found by ConfigFuzzTest).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"nodes: [{id: \"\\x", "nodes: [{id: \"\\u", "nodes: [{id: \"\\UFFFFFFFF\"}]\n"})
  void parse_cutOrOverflowingHexEscape_isRefusedWhereTheReaderStopped(String yaml) {
    assertThat(ConfigTesting.problems(yaml))
        .containsExactly(
            "chash.yaml:1:17: invalid YAML: an escape \\x, \\u or \\U needs 2, 4 or 8 hexadecimal"
                + " digits of a Unicode code point");
  }

  /**
   * A 2 MB scalar allocated 7.4 GB in 1.5 s of CPU: SnakeYAML's reader copied its window at every
   * buffer of a long token (found by ConfigFuzzTest). Allocation, not time, so a busy machine does
   * not fail it.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"nodes: [{id: %s}]\n", "nodes: [{id: \"%s\"}]\n", "nodes: &%s [{id: a}]\n"})
  void parse_aLongToken_allocatesLittle(String shape) {
    String yaml = String.format(shape, "a".repeat(YamlComposer.MAX_CHARS - 100));
    long before = ConfigTesting.threadAllocatedBytes();

    catchThrowable(() -> ChashConfigs.parse(yaml, "chash.yaml"));

    assertThat(ConfigTesting.threadAllocatedBytes() - before).isLessThan(64L << 20);
  }

  /**
   * A merge key whose alias names its own, still open anchor made SnakeYAML Engine loop forever
   * while composing (issue 43, point 1); the guard runs on events, before composing. The timeout
   * only turns a hang into a failure: the refusal takes milliseconds.
   */
  @ParameterizedTest
  @MethodSource("selfMerges")
  void parse_mergeOfItsOwnOpenAnchor_isRefusedWhereTheAliasIs(String yaml, String problem) {
    List<String> problems =
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> ConfigTesting.problems(yaml));

    assertThat(problems).containsExactly(problem);
  }

  static Stream<Arguments> selfMerges() {
    return Stream.of(
        Arguments.of(
            "nodes:\n  - &n { id: a, <<: *n }\n",
            "chash.yaml:2:21: alias *n is inside its own anchor &n; a value cannot contain"
                + " itself"),
        Arguments.of(
            "a: &x {<<: *x}\n",
            "chash.yaml:1:12: alias *x is inside its own anchor &x; a value cannot contain"
                + " itself"),
        Arguments.of(
            "caches: &c { x: {}, <<: *c }\n",
            "chash.yaml:1:25: alias *c is inside its own anchor &c; a value cannot contain"
                + " itself"),
        Arguments.of(
            "nodes: &a [*a]\n",
            "chash.yaml:1:12: alias *a is inside its own anchor &a; a value cannot contain"
                + " itself"));
  }

  @Test
  void parse_anchorRedefinedInsideItself_aliasMeansTheInnerOne() {
    // the alias names the latest &a, a closed scalar: not recursive
    assertThat(
            ConfigTesting.problems(
                "nodes: [{id: a}]\ncaches: &a {x: {ttl: &a 1m}, y: {ttl: *a}, z: 1}\n"))
        .singleElement(as(InstanceOfAssertFactories.STRING))
        .doesNotContain("alias");
  }

  @Test
  void parse_mergeOfAClosedAnchor_isFine() {
    ChashConfig config =
        ChashConfigs.parse(
            "nodes: [{id: a, type: local}]\n"
                + "caches: {base: &b {ttl: 1m}, users: {<<: *b, nullTtl: 10s}}\n",
            "chash.yaml");

    assertThat(config.caches().get("users").ttl()).isEqualTo(config.caches().get("base").ttl());
  }

  @Test
  void parse_fewAliases_areFine() {
    ChashConfig config =
        ChashConfigs.parse(
            "nodes: [{id: &id users, type: local}]\ncaches: {a: &t {ttl: 1m}, b: *t, *id : {}}\n",
            "chash.yaml");

    assertThat(config.caches().get("b").ttl()).isEqualTo(config.caches().get("a").ttl());
    assertThat(config.caches().keySet()).containsExactly("a", "b", "users");
  }

  @Test
  void load_nonUtf8Bytes_pointsAtTheByte(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chash.yaml");
    byte[] head = "nodes:\n  - id: ab".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[head.length + 2];
    System.arraycopy(head, 0, bytes, 0, head.length);
    bytes[head.length] = (byte) 0xff;
    bytes[head.length + 1] = '\n';
    Files.write(file, bytes);

    assertThat(ConfigTesting.problems(() -> ChashConfigs.load(file)))
        .containsExactly("chash.yaml:2:11: file is not valid UTF-8: byte 0xff at offset 17");
  }

  @Test
  void load_latin1File_isRejected(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.write(file, "nodes: [{id: caf\u00e9}]\n".getBytes(StandardCharsets.ISO_8859_1));

    assertThat(ConfigTesting.problems(() -> ChashConfigs.load(file)))
        .containsExactly("chash.yaml:1:17: file is not valid UTF-8: byte 0xe9 at offset 16");
  }

  @Test
  void parse_randomMutationsOfAValidFile_neverThrowAnythingElse() {
    String valid =
        "ring: {algorithm: ring, hash: xxh3, pointsPerWeight: 100}\n"
            + "nodes:\n"
            + "  - id: a\n"
            + "    weight: 2\n"
            + "  - {id: b, type: redis, uri: 'redis://${env:PW}@h:6380/1'}\n"
            + "caches:\n"
            + "  users: { ttl: 10m }\n"
            + "failover: { failureLimit: 3, retryAfter: 30s, timeout: 100ms, onRejoin: flush }\n"
            + "redis: { keyPrefix: 'chash:', codec: jdk, allow: [com.example.*] }\n"
            + "check: { maxSkew: 1.2, sampleKeys: 1000, keyPattern: 'k:{n}' }\n";
    String alphabet = "[]{}:-,'\"&*!#|>?% \t\n\\abz09.";
    Random random = new Random(42);
    for (int round = 0; round < 3000; round++) {
      StringBuilder yaml = new StringBuilder(valid);
      for (int edits = 1 + random.nextInt(4); edits > 0; edits--) {
        int at = random.nextInt(yaml.length());
        switch (random.nextInt(3)) {
          case 0 -> yaml.deleteCharAt(at);
          case 1 -> yaml.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
          default -> yaml.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      String text = yaml.toString();
      Throwable thrown = catchThrowable(() -> ChashConfigs.parse(text, "chash.yaml"));
      if (thrown != null) {
        assertThat(thrown).as("input:\n%s", text).isInstanceOf(ConfigException.class);
        assertLocated((ConfigException) thrown, text);
      }
    }
  }

  private static void assertLocatedConfigException(Runnable call) {
    Throwable thrown = catchThrowable(call::run);
    assertThat(thrown).isInstanceOf(ConfigException.class);
    assertLocated((ConfigException) thrown, "");
  }

  private static void assertLocated(ConfigException e, String input) {
    assertThat(e.problems()).as("input:\n%s", input).isNotEmpty();
    for (ConfigProblem p : e.problems()) {
      assertThat(p.file()).isEqualTo("chash.yaml");
      assertThat(p.line()).as("%s", p).isPositive();
      assertThat(p.column()).as("%s", p).isPositive();
      assertThat(p.message()).as("%s", p).isNotBlank();
      assertThat(p.toString()).startsWith("chash.yaml:" + p.line() + ":" + p.column() + ": ");
    }
  }
}
