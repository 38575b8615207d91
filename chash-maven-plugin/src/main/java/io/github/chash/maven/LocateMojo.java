package io.github.chash.maven;

import io.github.chash.analysis.KeySource;
import io.github.chash.config.ChashConfig;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Prints the node of one key ({@code -Dchash.key=K}), or writes {@code key<TAB>node} lines for
 * every line of a keys file ({@code -Dchash.keysFile=F}) to {@code -Dchash.output=F} or the
 * console.
 */
@Mojo(name = "locate", threadSafe = true)
public class LocateMojo extends AbstractChashMojo {

  /**
   * The key to locate. Default: none.
   *
   * <pre>{@code <key>users:42</key>}</pre>
   */
  @Parameter(property = "chash.key")
  private String key;

  /**
   * A file of keys to locate, one a line (empty lines skipped). Default: none.
   *
   * <pre>{@code <keysFile>${project.basedir}/keys.txt</keysFile>}</pre>
   */
  @Parameter(property = "chash.keysFile")
  private File keysFile;

  /**
   * Where the {@code key<TAB>node} lines go. Default: the console.
   *
   * <pre>{@code <output>${project.build.directory}/chash/located.tsv</output>}</pre>
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
  protected void run() throws MojoExecutionException, MojoFailureException {
    if (key == null && keysFile == null) {
      throw new MojoExecutionException(
          "chash:locate needs a key (-Dchash.key=K) or a keys file (-Dchash.keysFile=F)");
    }
    if (key != null && key.isEmpty()) {
      throw new MojoExecutionException(
          "chash.key must not be empty; was \"\" (an unset shell variable in -Dchash.key=$KEY?)");
    }
    ChashConfig config = loadConfig();
    Ring ring = Rings.create(config.ring(), config.ringNodes());
    if (ring.size() == 0) {
      throw new MojoExecutionException("chash:locate needs at least one node in " + configFile());
    }
    if (key != null) {
      getLog().info(key + "\t" + ring.locate(key).id());
    }
    if (keysFile != null) {
      try {
        if (output != null) {
          long n;
          try (Writer out = openOutput()) {
            n = locateAll(ring, keysFile, out);
          }
          getLog().info("chash: located " + n + " keys into " + output);
        } else {
          StringWriter out = new StringWriter();
          locateAll(ring, keysFile, out);
          out.toString().lines().forEach(getLog()::info);
        }
      } catch (IOException e) {
        throw new MojoExecutionException(e.getMessage(), e);
      }
    }
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
   * @throws IOException naming the file when it is missing, a directory or not UTF-8 (with the
   *     line), or naming the output when writing fails
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
