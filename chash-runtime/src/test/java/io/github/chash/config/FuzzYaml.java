package io.github.chash.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Structure-aware inputs for {@link ConfigFuzzTest}: chash.yaml files drawn from the schema, then
 * decorated with what YAML allows and hostile files use (anchors, aliases, merge keys including
 * self-referencing and mutual ones, tags, flow and block nesting, deep nesting, long tokens,
 * escapes, BOMs, control characters), and byte-level mutations and splices of corpus files. One
 * {@link Random} drives everything, so a seed replays an input.
 */
final class FuzzYaml {
  /** Mutated and spliced inputs are cut to this many bytes; long tokens may be longer. */
  static final int MAX_MUTATED_BYTES = 64 * 1024;

  private static final String[] TOP_KEYS = {
    "ring", "nodes", "caches", "failover", "migration", "redis", "memcached", "check"
  };
  private static final String[][] RING = {
    {"algorithm", "ring", "ketama", "maglev", "rendezvous", "jump", "jedis", "ketma"},
    {"hash", "xxh3", "murmur3", "fnv1a64", "md5", "fnv1-32", "jdk", "sha1"},
    {"pointsPerWeight", "1", "160", "1000", "10000", "0", "10001", "1.5"},
    {"compat", "spymemcached", "spymemcached-weighted", "twemproxy", "libketama", "x"},
    {"keyTags", "true", "false", "yes"},
  };
  private static final String[][] NODE = {
    {"id", "a", "b", "cache-1", "10.0.0.1:11211", "", " h", "a"},
    {"name", "shard-1", "mc-1", "shard-1"},
    {"type", "local", "redis", "memcached", "hazelcast", "memcache", "Redis"},
    {"weight", "1", "2", "3", "0", "-1", "1.5", "99999999999", "100000000"},
    {"maximumSize", "10000", "1", "0", "2147483648"},
    {
      "uri",
      "redis://h:6379/0",
      "rediss://default:${env:PW}@h:6380/1",
      "redis-sentinel://s1:26379,s2,s3:26379/0#shard-a",
      "redis-sentinel://s1,,s1/0#bad name",
      "memcached://h:11211",
      "redis://user:secret@h",
      "http://x:1",
      "redis://${env:H}:${env:P}",
      "redis://h:70000/zero?timeout=1s",
      "redis://${env:",
      "hz://cluster-1"
    },
    {"readFrom", "primary", "replicaPreferred", "replica"},
    {"replicaLag", "1s", "0s", "2x"},
  };
  private static final String[][] CACHE = {
    {"ttl", "10m", "100ms", "0s", "-1s", "1d", "10"},
    {"jitter", "10%", "2.5%", "60%", "x%"},
    {"refreshAhead", "20%", "90%", "91%"},
    {"nullTtl", "10s", "1h"},
    {"keys", "prefixed", "verbatim", "raw"},
    {"codec", "jdk", "jackson", "string", "bytes", "json"},
  };
  private static final String[][] NEAR = {
    {"maximumSize", "1000", "0", "2147483647"},
    {"ttl", "1s", "500ms", "0ms"},
    {"invalidation", "server", "ttl", "none"},
  };
  private static final String[][] FAILOVER = {
    {"failureLimit", "3", "0", "-2"},
    {"retryAfter", "30s", "2h", "30"},
    {"timeout", "100ms", "0ms"},
    {"onRejoin", "flush", "keep", "drop"},
    {"fallbackTtl", "1m", "0s"},
    {"promotionWait", "10s", "0s", "-1s"},
  };
  private static final String[][] MIGRATION = {{"window", "5m", "0s", "forever"}};
  private static final String[][] REMOTE = {
    {"keyPrefix", "chash:", "app:", "a:b:", "", "no-colon", "has space:"},
    {"codec", "jdk", "jackson", "kryo"},
    {"maxValueSize", "1MB", "1B", "512MB", "1GB", "0B", "2GB"},
  };
  private static final String[][] CHECK = {
    {"maxSkew", "1.20", "1.0", "0.9", ".nan", ".inf"},
    {"sampleKeys", "1000000", "1", "0", "100000001"},
    {"keyPattern", "key:{n}", "users:{n}", "no-n"},
    {"keysFile", "keys.txt", "../../etc/passwd"},
    {"baseline", "com.example:service:1.4.0", "git:main", "base.yaml"},
    {"maxMoved", "0.15", "1", "0", "1.5"},
    {"maxMovedOverIdeal", "1.5", "0.5"},
  };
  private static final String[] TAGS = {
    "!!str",
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!map",
    "!!seq",
    "!custom",
    "!!binary",
    "!!python/object:os.system",
    "!<tag:yaml.org,2002:str>",
    "!e!x",
    "!",
    "!!set",
    "!!timestamp"
  };
  private static final String[] ESCAPES = {
    "\\x41",
    "\\u00e9",
    "\\U0001F600",
    "\\t",
    "\\n",
    "\\\\",
    "\\\"",
    "\\/",
    "\\ ",
    "\\_",
    "\\N",
    "\\L",
    "\\P",
    "\\e",
    "\\0",
    "\\a",
    "\\x",
    "\\u12",
    "\\UFFFFFFFF",
    "\\U0011FFFF",
    "\\uD800",
    "\\q",
    "\\\n",
    "\\xZZ"
  };
  private static final String[] TOKENS = {
    "[",
    "]",
    "{",
    "}",
    ":",
    ": ",
    "- ",
    ",",
    "'",
    "\"",
    "&a ",
    "*a",
    "&b ",
    "*b",
    "<<: *a",
    "<<: [*a, *b]",
    "!!str ",
    "!custom ",
    "#",
    "|",
    ">-",
    "? ",
    "---\n",
    "...\n",
    "%YAML 1.2\n",
    "%TAG ! tag:x,2000:\n",
    "\t",
    "\n",
    "\r\n",
    "  ",
    "\uFEFF",
    "\u0000",
    "\u0085",
    "\u2028",
    "\uFFFE",
    "\uD800",
    "~",
    "null",
    "\\",
    "\\u",
    "nodes:",
    "caches:",
    "${env:",
    "\"\\x"
  };

  /** Keys that need other keys to be valid: left out of clean files (hostility 0). */
  private static final Set<String> NEEDS_OTHERS =
      Set.of(
          "name",
          "uri",
          "readFrom",
          "replicaLag",
          "compat",
          "keyTags",
          "promotionWait",
          "keysFile");

  private final Random random;
  private final List<String> anchors = new ArrayList<>();
  private final List<String> openAnchors = new ArrayList<>();
  private int nextAnchor;

  /** 0 to 3: how many decorations a generated file gets. */
  private int hostility;

  FuzzYaml(long seed) {
    // mixed: java.util.Random's first values of nearby seeds are nearly equal
    this.random = new Random(new SplittableRandom(seed).nextLong());
  }

  /** One input: a generated file, a hostile shape, or a mutation or splice of corpus files. */
  byte[] next(List<byte[]> corpus) {
    int kind = random.nextInt(100);
    byte[] input;
    if (kind < 35) {
      input = utf8(generated());
    } else if (kind < 50) {
      input = utf8(hostile());
    } else if (kind < 80) {
      input = corpus.get(random.nextInt(corpus.size()));
    } else if (kind < 90) {
      input = splice(corpus.get(random.nextInt(corpus.size())), utf8(generated()));
    } else {
      input =
          splice(
              corpus.get(random.nextInt(corpus.size())), corpus.get(random.nextInt(corpus.size())));
    }
    int mutations = kind >= 50 ? 1 + random.nextInt(8) : random.nextInt(3) == 0 ? 1 : 0;
    for (int i = 0; i < mutations; i++) {
      input = mutate(input);
    }
    return input;
  }

  /** A chash.yaml drawn from the schema, in random styles, with YAML decorations. */
  String generated() {
    anchors.clear();
    openAnchors.clear();
    nextAnchor = 0;
    hostility = random.nextInt(4);
    StringBuilder out = new StringBuilder();
    if (random.nextInt(10) == 0) {
      out.append("\uFEFF");
    }
    if (random.nextInt(10) == 0) {
      out.append(
          random.nextBoolean() ? "%YAML 1.2\n---\n" : "%TAG !e! tag:example.com,2000:\n---\n");
    }
    List<Object[]> top = new ArrayList<>();
    for (String key : TOP_KEYS) {
      if (key.equals("nodes") ? hostility == 0 || random.nextInt(10) > 0 : random.nextInt(3) == 0) {
        top.add(new Object[] {key, block(key)});
      }
    }
    if (hostility > 0 && random.nextInt(8) == 0) {
      top.add(new Object[] {pick(new String[] {"defaults", "wieght", "nodes", "x"}), block("x")});
    }
    shuffleSometimes(top);
    mapping(out, top, 0, false);
    if (random.nextInt(20) == 0) {
      out.append(random.nextBoolean() ? "...\n" : "---\nnodes: [{id: b}]\n");
    }
    return out.toString();
  }

  private Object block(String key) {
    return switch (key) {
      case "ring" -> fields(RING);
      case "nodes" -> {
        List<Object> nodes = new ArrayList<>();
        for (int i = random.nextInt(random.nextInt(8) == 0 ? 40 : 5); i >= 0; i--) {
          List<Object[]> node = fields(NODE);
          if (hostility == 0) {
            int id = i;
            node.stream().filter(e -> e[0].equals("id")).forEach(e -> e[1] = "n" + id); // unique
          }
          nodes.add(node);
        }
        yield nodes;
      }
      case "caches" -> {
        List<Object[]> caches = new ArrayList<>();
        for (int i = random.nextInt(6); i >= 0; i--) {
          List<Object[]> cache = fields(CACHE);
          if (hostility > 0 && random.nextInt(4) == 0) {
            cache.add(new Object[] {"near", fields(NEAR)});
          }
          if (hostility == 0) {
            cache.removeIf(e -> e[0].equals("ttl"));
            cache.add(0, new Object[] {"ttl", "10m"}); // jitter and refreshAhead need one
          }
          String name =
              hostility == 0 ? "c" + i : pick(new String[] {"users", "prices", "a:b", "", "users"});
          caches.add(new Object[] {name, cache});
        }
        yield caches;
      }
      case "failover" -> fields(FAILOVER);
      case "migration" -> fields(MIGRATION);
      case "redis", "memcached" -> {
        List<Object[]> remote = fields(REMOTE);
        if (random.nextBoolean()) {
          remote.add(
              new Object[] {
                "allow",
                List.of("com.example.*", pick(new String[] {"**", "*", "!com.x.Bad", "a.**"}))
              });
        }
        yield remote;
      }
      case "check" -> fields(CHECK);
      default -> fields(random.nextBoolean() ? CACHE : RING);
    };
  }

  /** Some fields of a block, usually valid values, sometimes invalid or a foreign key. */
  private List<Object[]> fields(String[][] schema) {
    List<Object[]> out = new ArrayList<>();
    for (String[] field : schema) {
      if (hostility == 0 && NEEDS_OTHERS.contains(field[0])) {
        continue;
      }
      if (field[0].equals("id") || random.nextInt(3) > 0) {
        boolean other = random.nextInt(hostility == 0 ? 50 : 4) == 0;
        String value = field[1 + (other ? random.nextInt(field.length - 1) : 0)];
        out.add(new Object[] {field[0], value});
      }
    }
    if (hostility > 0 && random.nextInt(10) == 0) {
      out.add(new Object[] {pick(new String[] {"wieght", "ttl", "id", "Type"}), "1"});
    }
    shuffleSometimes(out);
    return out;
  }

  @SuppressWarnings("unchecked")
  private void value(StringBuilder out, Object value, int indent, boolean flow) {
    if (hostility > 0 && !anchors.isEmpty() && random.nextInt(12 - 3 * hostility) == 0) {
      out.append(alias());
      return;
    }
    String anchor = null;
    if (hostility > 0 && random.nextInt(8) == 0) {
      anchor = "a" + nextAnchor++;
      out.append('&').append(anchor).append(' ');
    }
    if (hostility > 1 && random.nextInt(15) == 0) {
      out.append(pick(TAGS)).append(' ');
    }
    if (value instanceof String s) {
      scalar(out, s);
    } else {
      if (anchor != null) {
        openAnchors.add(anchor);
      }
      if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Object[]) {
        mapping(out, (List<Object[]>) list, indent, flow);
      } else {
        sequence(out, (List<Object>) value, indent, flow);
      }
      if (anchor != null) {
        openAnchors.remove(anchor);
      }
    }
    if (anchor != null) {
      anchors.add(anchor);
    }
  }

  /** An alias: usually of a closed anchor, sometimes of an open one (self-reference) or none. */
  private String alias() {
    int r = random.nextInt(10);
    if (r == 0 && !openAnchors.isEmpty()) {
      return "*" + openAnchors.get(random.nextInt(openAnchors.size()));
    }
    if (r == 1) {
      return "*a" + (nextAnchor + random.nextInt(3)); // forward or undefined
    }
    return "*" + anchors.get(random.nextInt(anchors.size()));
  }

  private void mapping(StringBuilder out, List<Object[]> entries, int indent, boolean flow) {
    List<Object[]> all = new ArrayList<>(entries);
    if (hostility > 1 && (!anchors.isEmpty() || !openAnchors.isEmpty()) && random.nextInt(4) == 0) {
      String merge =
          random.nextBoolean()
              ? anchorsOrOpen()
              : "[" + anchorsOrOpen() + ", " + anchorsOrOpen() + "]";
      all.add(random.nextInt(all.size() + 1), new Object[] {"<<", new Raw(merge)});
    }
    boolean asFlow = flow || random.nextInt(3) == 0 || all.isEmpty();
    if (asFlow) {
      out.append('{');
      for (int i = 0; i < all.size(); i++) {
        out.append(i == 0 ? "" : ", ");
        entry(out, all.get(i), indent, true);
      }
      out.append('}');
      if (indent == 0) {
        out.append('\n');
      }
      return;
    }
    if (indent > 0) {
      out.append('\n');
    }
    for (Object[] e : all) {
      out.append(" ".repeat(indent));
      entry(out, e, indent, false);
      out.append('\n');
    }
    trimTrailingNewline(out, indent);
  }

  private String anchorsOrOpen() {
    if (!openAnchors.isEmpty() && (anchors.isEmpty() || random.nextInt(3) == 0)) {
      return "*" + openAnchors.get(random.nextInt(openAnchors.size()));
    }
    return anchors.isEmpty() ? "*nowhere" : "*" + anchors.get(random.nextInt(anchors.size()));
  }

  private void entry(StringBuilder out, Object[] e, int indent, boolean flow) {
    scalar(out, (String) e[0]);
    out.append(": ");
    if (e[1] instanceof Raw raw) {
      out.append(raw.text);
    } else {
      value(out, e[1], indent + 2, flow);
    }
  }

  private void sequence(StringBuilder out, List<Object> items, int indent, boolean flow) {
    if (flow || items.isEmpty() || random.nextInt(3) == 0) {
      out.append('[');
      for (int i = 0; i < items.size(); i++) {
        out.append(i == 0 ? "" : ", ");
        value(out, items.get(i), indent, true);
      }
      out.append(']');
      return;
    }
    out.append('\n');
    for (Object item : items) {
      out.append(" ".repeat(indent)).append("- ");
      value(out, item, indent + 2, false);
      out.append('\n');
    }
    trimTrailingNewline(out, indent);
  }

  private static void trimTrailingNewline(StringBuilder out, int indent) {
    if (indent > 0 && out.length() > 0 && out.charAt(out.length() - 1) == '\n') {
      out.setLength(out.length() - 1);
    }
  }

  private void scalar(StringBuilder out, String s) {
    int style = random.nextInt(hostility > 1 ? 5 : hostility == 1 ? 8 : 30);
    if (style == 0) {
      out.append('\'').append(s.replace("'", "''")).append('\'');
    } else if (style == 1) {
      out.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\""));
      if (hostility > 1 && random.nextBoolean()) {
        out.append(pick(ESCAPES));
      }
      out.append('"');
    } else if (s.isEmpty()
        || s.startsWith(" ")
        || s.contains(":")
        || s.contains("{")
        || s.contains("!")
        || s.contains("*")
        || s.contains(",")) {
      out.append('"').append(s).append('"');
    } else {
      out.append(s);
    }
  }

  /** A shape known to stress YAML readers, with random sizes. */
  String hostile() {
    StringBuilder out = new StringBuilder();
    switch (random.nextInt(11)) {
      case 0 -> { // billion laughs
        int fanout = 2 + random.nextInt(9);
        out.append("a: &a [").append("\"lol\",".repeat(fanout)).append("]\n");
        for (int level = 1; level < 2 + random.nextInt(10); level++) {
          out.append('l').append(level).append(": &a").append(level).append(" [");
          String previous = level == 1 ? "a" : "a" + (level - 1);
          for (int i = 0; i < fanout; i++) {
            out.append(i == 0 ? "*" : ", *").append(previous);
          }
          out.append("]\n");
        }
        out.append("nodes: *a1\n");
      }
      case 1 -> { // deep nesting, flow or block
        int depth = 1 + random.nextInt(random.nextBoolean() ? 80 : 5000);
        switch (random.nextInt(4)) {
          case 0 -> out.append("[".repeat(depth)).append("]".repeat(depth));
          case 1 -> out.append("{a: ".repeat(depth)).append('1').append("}".repeat(depth));
          case 2 -> out.append("- ".repeat(depth)).append('x');
          default -> {
            for (int i = 0; i < Math.min(depth, 300); i++) {
              out.append(" ".repeat(i)).append("a:\n");
            }
          }
        }
      }
      case 2 -> { // one long token of some kind
        String token = String.valueOf((char) ('a' + random.nextInt(26))).repeat(longLength());
        out.append(
            switch (random.nextInt(8)) {
              case 0 -> "nodes: [{id: " + token + "}]\n";
              case 1 -> "nodes: [{id: \"" + token + "\"}]\n";
              case 2 -> "nodes: [{id: '" + token + "'}]\n";
              case 3 -> "nodes: &" + token + " [{id: a}]\n";
              case 4 -> "nodes: !" + token + " [{id: a}]\n";
              case 5 -> "nodes: [{id: a}]\n" + token + ": 1\n";
              case 6 -> "nodes: [{id: a}]\ncaches: {x: *" + token + "}\n";
              default -> "%TAG !e! " + token + "\n---\nnodes: [{id: a}]\n";
            });
      }
      case 3 -> { // a large anchored block repeated by aliases or merge keys
        int size = 1 + random.nextInt(random.nextBoolean() ? 100 : 3000);
        int uses = 1 + random.nextInt(50);
        boolean merge = random.nextBoolean();
        out.append("x: &big ").append(merge ? "{" : "[");
        for (int i = 0; i < size; i++) {
          out.append(i == 0 ? "" : ", ").append(merge ? "k" + i + ": 1" : "a.b" + i);
        }
        out.append(merge ? "}\n" : "]\n").append("nodes: [{id: a}]\n");
        if (merge) {
          out.append("caches:\n");
          for (int i = 0; i < uses; i++) {
            out.append("  c").append(i).append(": {<<: *big}\n");
          }
        } else {
          out.append("redis: {allow: [");
          for (int i = 0; i < uses; i++) {
            out.append(i == 0 ? "*big" : ", *big");
          }
          out.append("]}\n");
        }
      }
      case 4 -> { // chained merges, each mapping merging the previous ones
        int n = 2 + random.nextInt(30);
        for (int i = 0; i < n; i++) {
          out.append("m").append(i).append(": &m").append(i).append(" {k").append(i).append(": 1");
          for (int j = Math.max(0, i - 3); j < i; j++) {
            out.append(", <<: *m").append(j);
          }
          out.append("}\n");
        }
        out.append("nodes: [{id: a}]\ncaches: {x: {<<: *m").append(n - 1).append("}}\n");
      }
      case 5 -> { // self-referencing and mutual merges
        out.append(
            pick(
                new String[] {
                  "nodes:\n  - &n { id: a, <<: *n }\n",
                  "a: &x {<<: *x}\n",
                  "caches: &c { x: {}, <<: *c }\n",
                  "a: &a {<<: *b}\nb: &b {<<: *a}\n",
                  "a: &a {b: &b {<<: [*a, *b]}}\n",
                  "a: &a [&b {<<: *b}]\n",
                  "a: &a {x: &a {y: 1}, <<: *a}\nnodes: [{id: a}]\n",
                  "a: &a {}\na: &a {<<: *a}\nnodes: [{id: a}]\n"
                }));
      }
      case 6 -> { // many entries
        int n = 1 + random.nextInt(1500);
        out.append("nodes:\n");
        for (int i = 0; i < n; i++) {
          out.append("  - {id: n").append(random.nextInt(n)).append("}\n");
        }
        out.append("caches:\n");
        for (int i = 0; i < n; i++) {
          out.append("  c").append(i).append(": {ttl: 1m, ttl: ").append(i).append("}\n");
        }
      }
      case 7 -> { // escapes in double-quoted strings, possibly cut at the end
        out.append("nodes: [{id: \"");
        for (int i = random.nextInt(20); i >= 0; i--) {
          out.append(pick(ESCAPES));
        }
        if (random.nextBoolean()) {
          out.append("\"}]\n");
        }
      }
      case 8 -> { // control characters and BOMs anywhere
        out.append("nodes: [{id: a}]\n");
        for (int i = random.nextInt(5); i >= 0; i--) {
          int at = random.nextInt(out.length() + 1);
          out.insert(
              at, random.nextBoolean() ? "\uFEFF" : String.valueOf((char) random.nextInt(0x20)));
        }
      }
      case 9 -> { // tags everywhere
        out.append("nodes: ")
            .append(pick(TAGS))
            .append(" [{id: ")
            .append(pick(TAGS))
            .append(" a}]\n");
        out.append("ring: ")
            .append(pick(TAGS))
            .append(" {hash: ")
            .append(pick(TAGS))
            .append(" xxh3}\n");
      }
      default -> { // block scalars, complex keys, comments, documents
        out.append(
            pick(
                new String[] {
                  "nodes:\n  - id: |+2\n      a\n\n",
                  "nodes:\n  - id: >-\n   a\n  b\n",
                  "? [a, b]\n: c\nnodes: [{id: a}]\n",
                  "? |\n  nodes\n: [{id: a}]\n",
                  "nodes: [{id: a}] # c\n# c\n--- # c\n",
                  "--- !!map\nnodes: !!seq [!!map {id: !!str a}]\n...\n---\n",
                  "nodes: [{id: a}]\n%YAML 1.2\n",
                  "nodes: [{? id : a}]\n"
                }));
      }
    }
    return out.toString();
  }

  private int longLength() {
    return random.nextBoolean() ? 1 + random.nextInt(10_000) : 100_000 + random.nextInt(400_000);
  }

  /** One edit of the bytes: a flip, an insertion of a YAML token, a deletion or a duplication. */
  byte[] mutate(byte[] in) {
    if (in.length == 0) {
      return utf8(pick(TOKENS));
    }
    int at = random.nextInt(in.length);
    return cut(
        switch (random.nextInt(7)) {
          case 0 -> {
            byte[] out = in.clone();
            out[at] ^= (byte) (1 << random.nextInt(8));
            yield out;
          }
          case 1 -> {
            byte[] out = in.clone();
            out[at] = (byte) random.nextInt(256);
            yield out;
          }
          case 2, 3 -> concat(slice(in, 0, at), utf8(pick(TOKENS)), slice(in, at, in.length));
          case 4 ->
              concat(
                  slice(in, 0, at),
                  slice(in, Math.min(in.length, at + 1 + random.nextInt(40)), in.length));
          case 5 -> {
            int end = Math.min(in.length, at + 1 + random.nextInt(200));
            yield concat(slice(in, 0, end), slice(in, at, end), slice(in, end, in.length));
          }
          default -> slice(in, 0, at); // truncated
        });
  }

  /** The head of one input and the tail of another. */
  byte[] splice(byte[] a, byte[] b) {
    return cut(
        concat(
            slice(a, 0, random.nextInt(a.length + 1)),
            slice(b, random.nextInt(b.length + 1), b.length)));
  }

  private static byte[] cut(byte[] in) {
    return in.length <= MAX_MUTATED_BYTES ? in : slice(in, 0, MAX_MUTATED_BYTES);
  }

  private static byte[] slice(byte[] in, int from, int to) {
    byte[] out = new byte[to - from];
    System.arraycopy(in, from, out, 0, out.length);
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  private static byte[] utf8(String s) {
    // lone surrogates become '?': strings with them are tried by parse(String) in the test
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private <T> T pick(T[] values) {
    return values[random.nextInt(values.length)];
  }

  private <T> void shuffleSometimes(List<T> list) {
    if (random.nextInt(4) == 0) {
      java.util.Collections.shuffle(list, random);
    }
  }

  /** Text written as it is, a merge key's alias. */
  private record Raw(String text) {}
}
