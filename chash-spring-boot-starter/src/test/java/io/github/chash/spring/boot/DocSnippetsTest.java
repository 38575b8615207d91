package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java snippet of the Spring Boot page compiles as it is, imports included, against the
 * starter and Spring: a reader can paste it. Each fenced {@code java} block is one compilation unit
 * of its own.
 */
class DocSnippetsTest {
  private static final Path PAGE = Path.of("..", "src-site", "markdown", "spring-boot.md");

  /** A fenced java block, possibly indented under a list item. */
  private static final Pattern BLOCK =
      Pattern.compile("(?m)^( *)```java\\n(.*?)^\\1```$", Pattern.DOTALL);

  private static final Pattern TYPE =
      Pattern.compile("(?m)^(?:public |final |abstract )*(?:class|record|interface) (\\w+)");

  @TempDir Path dir;

  static List<String> snippets(String page) {
    List<String> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(page);
    while (m.find()) {
      String indent = m.group(1);
      StringBuilder code = new StringBuilder();
      for (String line : m.group(2).split("\n", -1)) {
        code.append(line.startsWith(indent) ? line.substring(indent.length()) : line).append('\n');
      }
      out.add(code.toString());
    }
    return out;
  }

  @Test
  void everyJavaSnippet_compilesWithItsImports() throws IOException {
    List<String> snippets = snippets(Files.readString(PAGE, StandardCharsets.UTF_8));
    assertThat(snippets).as("java blocks in " + PAGE).hasSizeGreaterThanOrEqualTo(3);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    for (int i = 0; i < snippets.size(); i++) {
      String code = snippets.get(i);
      Matcher type = TYPE.matcher(code);
      assertThat(type.find()).as("a type in snippet %d:%n%s", i + 1, code).isTrue();
      Path unit = dir.resolve("s" + i).resolve(type.group(1) + ".java");
      Files.createDirectories(unit.getParent());
      Files.writeString(unit, code, StandardCharsets.UTF_8);
      StringWriter errors = new StringWriter();
      boolean compiled =
          javac
              .getTask(
                  errors,
                  null,
                  null,
                  List.of(
                      "-proc:none",
                      "-classpath",
                      System.getProperty("java.class.path"),
                      "-d",
                      unit.getParent().toString()),
                  null,
                  javac
                      .getStandardFileManager(null, null, StandardCharsets.UTF_8)
                      .getJavaFileObjects(unit))
              .call();
      assertThat(compiled).as("snippet %d of %s:%n%s%n%s", i + 1, PAGE, code, errors).isTrue();
    }
  }
}
