package io.github.chash.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Finds the configuration a change is compared with by default: the same {@code chash.yaml} as
 * committed at the merge-base of {@code HEAD} and the default branch ({@code origin/HEAD}, else
 * {@code main}, {@code master}, {@code origin/main}, {@code origin/master}), or of {@code HEAD} and
 * a ref the user names ({@code git:REF}). A pull-request build so compares with the branch it
 * targets, and a build of the default branch with itself.
 *
 * <p>Read with the {@code git} command line, the repository's own tool, which understands every
 * repository layout (worktrees, shallow and partial clones) and adds no library to the plugin; only
 * read-only commands run, without optional locks, so parallel module builds in one repository do
 * not contend. Stateless apart from the environment it is given.
 */
final class GitBaseline {
  /** Refs tried, in order, for the default branch. */
  static final List<String> DEFAULT_BRANCHES =
      List.of("origin/HEAD", "main", "master", "origin/main", "origin/master");

  private static final long TIMEOUT_SECONDS = 60;

  /** What was found: the baseline, or why there is none. */
  sealed interface Outcome permits Found, NotFound {}

  /**
   * The baseline.
   *
   * @param name how messages and {@code report.json} name it: {@code git:main@1a2b3c4}
   * @param source the file as git names it, for problems in it: {@code
   *     1a2b3c4:src/main/resources/chash.yaml}
   * @param yaml its content at the merge-base
   * @param detail one line saying what was compared
   */
  record Found(String name, String source, String yaml, String detail) implements Outcome {}

  /**
   * No baseline.
   *
   * @param reason why, in one line, with what to do when there is something
   */
  record NotFound(String reason) implements Outcome {}

  private final Map<String, String> environment;

  /**
   * A finder running {@code git} with these extra environment variables (tests set {@code
   * GIT_CEILING_DIRECTORIES}).
   */
  GitBaseline(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /**
   * Finds the baseline of a configuration file.
   *
   * @param file the configuration in the working tree
   * @param display how messages name it
   * @param ref the ref named by {@code git:REF}, or null for the default branch
   * @throws IllegalArgumentException when {@code ref} is given but is no commit of the repository
   */
  Outcome find(File file, String display, String ref) {
    Path dir = file.getAbsoluteFile().toPath().getParent();
    Result top;
    try {
      top = gitOrThrow(dir, "rev-parse", "--show-toplevel");
    } catch (IOException e) {
      return new NotFound("git is not on the PATH (" + e.getMessage() + ")");
    }
    if (!top.ok()) {
      return new NotFound("not in a git repository");
    }
    if (!git(dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").ok()) {
      return new NotFound("the git repository has no commit yet");
    }
    boolean shallow = git(dir, "rev-parse", "--is-shallow-repository").out().equals("true");
    String target = ref;
    if (target == null) {
      for (String candidate : DEFAULT_BRANCHES) {
        if (isCommit(dir, candidate)) {
          target = candidate;
          break;
        }
      }
      if (target == null) {
        return new NotFound(
            "no default branch to compare with (none of "
                + String.join(", ", DEFAULT_BRANCHES)
                + (shallow ? " in this shallow clone" : "")
                + "); name one with -Dchash.baseline=git:REF");
      }
    } else if (!isCommit(dir, target)) {
      throw new IllegalArgumentException(
          "chash.baseline git:" + target + " is not a commit of the git repository of " + display);
    }
    Result base = git(dir, "merge-base", "HEAD", target);
    if (!base.ok()) {
      return new NotFound(
          shallow
              ? "shallow clone: the merge-base of HEAD and "
                  + target
                  + " was not fetched; fetch the history (git fetch --unshallow, or fetch-depth: 0"
                  + " in actions/checkout) to compare with it"
              : "HEAD and " + target + " have no common history");
    }
    String commit = base.out();
    String shortCommit = git(dir, "rev-parse", "--short", commit).out();
    Path root = Path.of(top.out());
    String inRepo;
    try {
      inRepo = root.toRealPath().relativize(file.toPath().toRealPath()).toString();
    } catch (IOException e) {
      return new NotFound("cannot place " + display + " in the repository: " + e.getMessage());
    }
    inRepo = inRepo.replace(File.separatorChar, '/');
    Result content = git(dir, "show", commit + ":" + inRepo);
    if (!content.ok()) {
      // the path is the repository's, so ask from its top
      boolean tracked = git(root, "ls-files", "--error-unmatch", "--", inRepo).ok();
      return new NotFound(
          tracked
              ? "it is new since "
                  + shortCommit
                  + " (the merge-base of HEAD and "
                  + target
                  + "): nothing to compare with"
              : "it is not tracked by git: nothing to compare with");
    }
    String name = "git:" + target + "@" + shortCommit;
    String detail =
        "baseline "
            + name
            + ": "
            + display
            + " as committed at "
            + shortCommit
            + (commit.equals(git(dir, "rev-parse", "HEAD").out())
                ? ", HEAD itself (a build of " + target + " compares with itself)"
                : ", the merge-base of HEAD and " + target);
    return new Found(name, shortCommit + ":" + inRepo, content.raw(), detail);
  }

  private boolean isCommit(Path dir, String ref) {
    return git(dir, "rev-parse", "--verify", "--quiet", ref + "^{commit}").ok();
  }

  /** A finished git command: its exit code and standard output. */
  private record Result(int exit, String raw) {
    boolean ok() {
      return exit == 0;
    }

    /** The output without its trailing line break. */
    String out() {
      return raw.strip();
    }
  }

  /** Runs git in {@code dir}; a git that cannot start at all is an {@link IOException}. */
  private Result gitOrThrow(Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("GIT_OPTIONAL_LOCKS", "0");
    builder.environment().put("GIT_TERMINAL_PROMPT", "0");
    builder.environment().putAll(environment);
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.redirectInput(ProcessBuilder.Redirect.from(new File(nullDevice())));
    Process process = builder.start();
    String out;
    try (InputStream in = process.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(-1, "");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return new Result(-1, "");
    }
    return new Result(process.exitValue(), out);
  }

  /** Runs git in {@code dir}; a git that cannot start counts as a failed command. */
  private Result git(Path dir, String... args) {
    try {
      return gitOrThrow(dir, args);
    } catch (IOException e) {
      return new Result(-1, "");
    }
  }

  private static String nullDevice() {
    return System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null";
  }
}
