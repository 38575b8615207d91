package io.github.chash.maven;

import io.github.chash.analysis.KeySource;
import io.github.chash.config.ChashConfig;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Prints the node of one key ({@code -Dchash.key=K}), or of every line of a keys file ({@code
 * -Dchash.keysFile=F}), as plain {@code key<TAB>node} lines: to {@code -Dchash.output=F}, or to
 * standard output, not the build log, so they carry no {@code [INFO]} prefix and appear with {@code
 * -q} as well: {@code mvn -q chash:locate -Dchash.keysFile=keys.txt > located.tsv}. The keys are
 * streamed: memory stays constant however many there are.
 */
@Mojo(name = "locate", threadSafe = true)
public class LocateMojo extends AbstractChashMojo {

  /**
   * The key to locate. Default: none.
   *
   * <pre>
   * &lt;key&gt;users:42&lt;/key&gt;
   * </pre>
   */
  @Parameter(property = "chash.key")
  private String key;

  /**
   * A file of keys to locate, one a line (empty lines skipped). Default: none.
   *
   * <pre>
   * &lt;keysFile&gt;${project.basedir}/keys.txt&lt;/keysFile&gt;
   * </pre>
   */
  @Parameter(property = "chash.keysFile")
  private File keysFile;

  /**
   * Where the {@code key<TAB>node} lines go. Default: standard output.
   *
   * <pre>
   * &lt;output&gt;${project.build.directory}/chash/located.tsv&lt;/output&gt;
   * </pre>
   */
  @Parameter(property = "chash.output")
  private File output;

  /** Creates the mojo. */
  public LocateMojo() {}

  @Override
  protected String goal() {
    return "locate";
  }

  @Override
  protected void run(ConfigFile file) throws MojoExecutionException, MojoFailureException {
    if (key == null && keysFile == null) {
      throw new MojoExecutionException(
          "chash:locate needs a key (-Dchash.key=K) or a keys file (-Dchash.keysFile=F)");
    }
    if (key != null && key.isEmpty()) {
      throw new MojoExecutionException(
          "chash.key must not be empty, was \"\" (an unset shell variable in -Dchash.key=$KEY?)");
    }
    ChashConfig config = file.load();
    Ring ring = Rings.create(config.ring(), config.ringNodes());
    try {
      if (output != null) {
        long n;
        try (Writer out = openOutput()) {
          n = locate(ring, out);
        }
        getLog()
            .info("chash: located " + Text.count(n, "key") + " into " + display(output.toPath()));
      } else {
        // standard output, never closed: Maven writes its own lines there afterwards
        Writer out =
            new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        locate(ring, out);
      }
    } catch (IOException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }

  /** Writes the key's line, then the keys file's; flushes; returns how many. */
  private long locate(Ring ring, Writer out) throws IOException {
    long n = 0;
    if (key != null) {
      out.write(key + "\t" + ring.locate(key).id() + "\n");
      n++;
    }
    if (keysFile != null) {
      n += locateAll(ring, keysFile, out);
    }
    out.flush();
    return n;
  }

  private Writer openOutput() throws IOException {
    if (Files.isDirectory(output.toPath())) {
      throw new IOException("chash.output " + output + " is a directory; name a file");
    }
    try {
      if (output.getParentFile() != null) {
        Files.createDirectories(output.getParentFile().toPath());
      }
      return Files.newBufferedWriter(output.toPath(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IOException("cannot write chash.output " + output + ": " + e, e);
    }
  }

  /**
   * Writes {@code key<TAB>node} for every non-empty line, read as {@link KeySource#forEachKey} does
   * (a byte order mark dropped, CRLF understood); returns the count.
   *
   * @throws IOException naming the file when it is missing, a directory, not UTF-8 or has a line
   *     over {@link KeySource#MAX_LINE_LENGTH} characters or more than {@link KeySource#MAX_LINES}
   *     lines (those three with the line), or naming the output when writing fails
   */
  static long locateAll(Ring ring, File keys, Writer out) throws IOException {
    long[] n = {0};
    Writer w = out instanceof BufferedWriter ? out : new BufferedWriter(out);
    try {
      KeySource.forEachKey(
          keys.toPath(),
          key -> {
            try {
              w.write(key);
              w.write('\t');
              w.write(ring.locate(key).id());
              w.write('\n');
              n[0]++;
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw new IOException("cannot write the located keys: " + e.getCause().getMessage(), e);
    }
    w.flush();
    return n[0];
  }
}
