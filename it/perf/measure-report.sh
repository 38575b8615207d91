#!/usr/bin/env bash
# The cost target of issue 19: `mvn chash:report` with 1,000,000 sample keys against `mvn validate`
# on the same project (chash:validate and chash:check bound as usual), at 10, 1000 and 10,000
# nodes of weights 1-3 and the default 1000 points per weight. Targets: at most 1.5x the wall time
# of validate at 1000 nodes, 2x at 10,000, and a resident set under 512 MB.
#
# Paired runs: validate and report alternate, so a load change on the machine hits both; the table
# gives the median of the per-pair ratios, the median wall times, the largest resident set and the
# report sizes, then each size's last report line (where its time went: config, ring, analysis,
# baseline, files, and the JIT's compilation time in that JVM).
#
# Needs the plugin in it/target/local-repo, so run first, from the repository root:
#   ./mvnw -B -ntp -pl chash-maven-plugin,it -am verify -Dinvoker.test=balanced-passes
# then: it/perf/measure-report.sh [RUNS] [NODES...]   (default: 5 runs; 10 1000 10000 nodes)
# Not part of CI: timings are only meaningful on an otherwise idle machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs="${1:-5}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 1000 10000)
repo="$root/it/target/local-repo"
[ -d "$repo/io/github/chash/chash-maven-plugin" ] || { echo "no plugin in $repo: build it/ first" >&2; exit 2; }
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started="$(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

# one run: prints "WALL_SECONDS MAX_RSS_KB CPU_SECONDS"
measure() {
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" "${mvn[@]}" "$@" > "$work/out" 2>&1 \
    || { cat "$work/out" >&2; exit 1; }
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$work/time"
}

printf '| nodes | validate (s) | report (s) | wall ratio (median of %d pairs) | CPU ratio | report max RSS (MB) | validate max RSS (MB) | report.json | report.html |\n' "$runs"
printf '|---|---|---|---|---|---|---|---|---|\n'
notes=()
for nodes in "${sizes[@]}"; do
  project="$work/perf-$nodes"
  mkdir -p "$project/src/main/resources"
  sed -e "s/@project.groupId@/io.github.chash/" -e "s/@project.version@/$version/" \
      -e "s/<artifactId>balanced-passes</<artifactId>perf-$nodes-nodes</" \
      "$root/it/src/it/balanced-passes/pom.xml" > "$project/pom.xml"
  sed "s|@localRepositoryUrl@|file://$HOME/.m2/repository|" "$root/it/src/it/settings.xml" > "$project/settings.xml"
  {
    printf 'nodes:\n'
    for ((i = 0; i < nodes; i++)); do
      printf '  - { id: cache-%d, type: local, weight: %d }\n' "$i" $((1 + i % 3))
    done
    printf 'check:\n  maxSkew: 1.25\n  sampleKeys: 1000000\n  keyPattern: "users:{n}"\n'
  } > "$project/src/main/resources/chash.yaml"
  mvn=("$root/mvnw" -B -o -s "$project/settings.xml" "-Dmaven.repo.local=$repo" -f "$project/pom.xml")
  "${mvn[@]}" -q validate > /dev/null   # warm the file system cache
  ratios=() ; cpus=() ; vwall=() ; rwall=() ; vrss=0 ; rrss=0
  for ((r = 0; r < runs; r++)); do
    read -r vw vm vc < <(measure validate)
    read -r rw rm rc < <(measure chash:report)
    ratios+=("$(awk -v a="$rw" -v b="$vw" 'BEGIN { printf "%.2f", a / b }')")
    cpus+=("$(awk -v a="$rc" -v b="$vc" 'BEGIN { printf "%.2f", a / b }')")
    vwall+=("$vw"); rwall+=("$rw")
    (( vm > vrss )) && vrss=$vm
    (( rm > rrss )) && rrss=$rm
  done
  json=$(stat -c %s "$project/target/chash/report.json")
  html=$(stat -c %s "$project/target/chash/report.html")
  printf '| %s | %s | %s | %sx | %sx | %d | %d | %s KB | %s KB |\n' "$nodes" \
    "$(printf '%s\n' "${vwall[@]}" | median)" "$(printf '%s\n' "${rwall[@]}" | median)" \
    "$(printf '%s\n' "${ratios[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" \
    $((rrss / 1024)) $((vrss / 1024)) \
    $((json / 1024)) $((html / 1024))
  notes+=("$nodes nodes: $(grep -o 'chash: wrote .*' "$work/out" | sed 's/^chash: wrote [^(]*//')")
  if [ "$nodes" = 1000 ]; then
    cp "$work/out" "$work/report-1000.log"
  fi
done
echo
printf '%s\n' "${notes[@]}"
if [ -f "$work/report-1000.log" ]; then
  echo
  echo "The 1000-node report's first 15 lines:"
  grep -A14 -m1 'chash key distribution of' "$work/report-1000.log"
fi
echo
echo "load average: $started before, $(cut -d' ' -f1-3 /proc/loadavg) after, $(nproc) cores"
