package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default baseline, found by the real git command line in repositories made here. */
class GitBaselineTest {
  private static final String CONFIG = "src/main/resources/chash.yaml";
  private static final String TWO = "nodes:\n  - id: a\n  - id: b\n";
  private static final String THREE = TWO + "  - id: c\n";

  @TempDir Path dir;

  /** Never looks above the test's folder: the build itself may run inside a repository. */
  private GitBaseline finder() {
    return new GitBaseline(Map.of("GIT_CEILING_DIRECTORIES", dir.toString()));
  }

  private Path repo() throws Exception {
    Path repo = dir.resolve("repo");
    Files.createDirectories(repo);
    git(repo, "init", "-q", "-b", "main");
    return repo;
  }

  private static void git(Path repo, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                "git",
                "-C",
                repo.toString(),
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
  }

  private static File write(Path repo, String text) throws IOException {
    Path file = repo.resolve(CONFIG);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return file.toFile();
  }

  private static void commit(Path repo, String message) throws Exception {
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", message);
  }

  @Test
  void find_onABranch_comparesWithTheFileAtTheMergeBaseWithMain() throws Exception {
    Path repo = repo();
    write(repo, TWO);
    commit(repo, "two nodes");
    git(repo, "checkout", "-q", "-b", "feature");
    File file = write(repo, THREE);
    commit(repo, "three nodes");
    // main moves on after the branch: the branch is still compared with where it started
    git(repo, "checkout", "-q", "main");
    write(repo, TWO + "  - id: z\n");
    commit(repo, "main changes too");
    git(repo, "checkout", "-q", "feature");

    GitBaseline.Outcome outcome = finder().find(file, CONFIG, null);

    assertThat(outcome).isInstanceOf(GitBaseline.Found.class);
    GitBaseline.Found found = (GitBaseline.Found) outcome;
    assertThat(found.yaml()).isEqualTo(TWO);
    assertThat(found.name()).startsWith("git:main@");
    assertThat(found.source()).endsWith(":" + CONFIG);
    assertThat(found.detail()).endsWith(", the merge-base of HEAD and main");
  }

  @Test
  void find_onTheDefaultBranch_comparesWithItself_includingUncommittedEdits() throws Exception {
    Path repo = repo();
    write(repo, TWO);
    commit(repo, "two nodes");
    File file = write(repo, THREE); // not committed: the change being made

    GitBaseline.Found found = (GitBaseline.Found) finder().find(file, CONFIG, null);

    assertThat(found.yaml()).isEqualTo(TWO);
    assertThat(found.detail()).contains("HEAD itself (a build of main compares with itself)");
  }

  @Test
  void find_gitRef_usesTheMergeBaseWithThatRef() throws Exception {
    Path repo = repo();
    write(repo, TWO);
    commit(repo, "v1");
    git(repo, "tag", "v1");
    File file = write(repo, THREE);
    commit(repo, "v2");

    GitBaseline.Found found = (GitBaseline.Found) finder().find(file, CONFIG, "v1");

    assertThat(found.yaml()).isEqualTo(TWO);
    assertThat(found.name()).startsWith("git:v1@");
    assertThatThrownBy(() -> finder().find(file, CONFIG, "v9"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chash.baseline git:v9 is not a commit of the git repository of " + CONFIG);
  }

  @Test
  void find_newFile_isNoBaseline() throws Exception {
    Path repo = repo();
    Files.writeString(repo.resolve("README"), "x");
    commit(repo, "first");
    git(repo, "checkout", "-q", "-b", "feature");
    File file = write(repo, TWO);
    assertThat(finder().find(file, CONFIG, null))
        .isEqualTo(new GitBaseline.NotFound("it is not tracked by git: nothing to compare with"));
    commit(repo, "add the config");

    GitBaseline.NotFound none = (GitBaseline.NotFound) finder().find(file, CONFIG, null);

    assertThat(none.reason())
        .startsWith("it is new since ")
        .endsWith(" (the merge-base of HEAD and main): nothing to compare with");
  }

  @Test
  void find_outsideARepository_orBeforeTheFirstCommit_isNoBaseline() throws Exception {
    File loose = write(dir.resolve("loose"), TWO);
    assertThat(finder().find(loose, CONFIG, null))
        .isEqualTo(new GitBaseline.NotFound("not in a git repository"));
    Path repo = repo();
    File file = write(repo, TWO);
    assertThat(finder().find(file, CONFIG, null))
        .isEqualTo(new GitBaseline.NotFound("the git repository has no commit yet"));
  }

  @Test
  void find_withoutADefaultBranch_saysWhichWereTried() throws Exception {
    Path repo = repo();
    File file = write(repo, TWO);
    commit(repo, "first");
    git(repo, "branch", "-m", "trunk");

    GitBaseline.NotFound none = (GitBaseline.NotFound) finder().find(file, CONFIG, null);

    assertThat(none.reason())
        .isEqualTo(
            "no default branch to compare with (none of origin/HEAD, main, master, origin/main,"
                + " origin/master); name one with -Dchash.baseline=git:REF");
  }

  @Test
  void find_shallowCloneWithoutTheMergeBase_saysToFetchTheHistory() throws Exception {
    Path origin = repo();
    write(origin, TWO);
    commit(origin, "first");
    git(origin, "checkout", "-q", "-b", "feature");
    write(origin, THREE);
    commit(origin, "second");
    write(origin, THREE + "  - id: d\n");
    commit(origin, "third");
    git(origin, "checkout", "-q", "main"); // the origin's HEAD: the clone's origin/HEAD
    Path clone = dir.resolve("clone");
    git(
        dir,
        "clone",
        "-q",
        "--depth",
        "1",
        "--no-single-branch",
        origin.toUri().toString(),
        clone.toString());
    git(clone, "checkout", "-q", "feature");

    GitBaseline.NotFound none =
        (GitBaseline.NotFound) finder().find(clone.resolve(CONFIG).toFile(), CONFIG, null);

    assertThat(none.reason())
        .startsWith("shallow clone: the merge-base of HEAD and origin/HEAD was not fetched")
        .contains("git fetch --unshallow");
  }
}
