#!/usr/bin/env bash
# Issue 3's performance target: wall time of `mvn chash:report` on 1000 nodes with 1,000,000 sample
# keys, against `mvn validate` on the same project (chash:validate and chash:check bound as usual).
#
# Needs the plugin in it/target/local-repo, so run first, from the repository root:
#   ./mvnw -B -ntp -pl chash-maven-plugin,it -am verify
# then: it/perf/measure-report.sh [RUNS]   (uses hyperfine when installed, else `time` per run)
# Not part of CI: timings are only meaningful on an otherwise idle machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs="${1:-5}"
repo="$root/it/target/local-repo"
[ -d "$repo/io/github/chash/chash-maven-plugin" ] || { echo "no plugin in $repo: build it/ first" >&2; exit 2; }
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/main/resources"
sed -e "s/@project.groupId@/io.github.chash/" -e "s/@project.version@/$version/" \
    -e "s/<artifactId>balanced-passes</<artifactId>perf-1000-nodes</" \
    "$root/it/src/it/balanced-passes/pom.xml" > "$work/pom.xml"
sed "s|@localRepositoryUrl@|file://$HOME/.m2/repository|" "$root/it/src/it/settings.xml" > "$work/settings.xml"
{
  printf 'ring:\n  algorithm: ring\n  hash: xxh3\n  pointsPerWeight: 1000\nnodes:\n'
  for i in $(seq 0 999); do
    printf '  - id: cache-%04d\n    type: local\n    weight: %d\n' "$i" $((1 + i % 3))
  done
  printf 'check:\n  maxSkew: 1.25\n  sampleKeys: 1000000\n  keyPattern: "users:{n}"\n'
} > "$work/src/main/resources/chash.yaml"
mvn=("$root/mvnw" -B -o -q -s "$work/settings.xml" "-Dmaven.repo.local=$repo" -f "$work/pom.xml")
"${mvn[@]}" validate >/dev/null   # warm the file system cache
"${mvn[@]}" chash:report | grep -E "analyzed|max skew" || true
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs "$runs" "${mvn[*]} validate" "${mvn[*]} chash:report"
else
  for goal in validate chash:report; do
    for _ in $(seq "$runs"); do
      /usr/bin/time -f "$goal %e s" "${mvn[@]}" "$goal" >/dev/null
    done
  done
fi
