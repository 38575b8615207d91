#!/usr/bin/env bash
# Builds benchmarks/target/benchmarks.jar and produces the tables in benchmarks/README.md:
# JMH ring lookup and build times, memory per virtual point (JOL) and balance/movement quality.
# Results go to benchmarks/target/results/ ; the combined markdown is results/results.md.
# Usage (from anywhere): benchmarks/run.sh [extra JMH options, e.g. -prof gc]
# JMH_JAVA_OPTS adds JVM options to the JMH launcher, e.g. JMH_JAVA_OPTS=-Djmh.ignoreLock=true when
# another JMH run holds /tmp/jmh.lock (the numbers are then disturbed by it).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
jar="$here/target/benchmarks.jar"
out="$here/target/results"

# JMH settings of the README tables: one fork, 3 x 1 s warm-up, 5 x 1 s measurement, average time.
jmh_common=(-f 1 -wi 3 -w 1s -i 5 -r 1s -bm avgt)

cd "$root"
./mvnw -B -ntp -q -pl benchmarks -am package -DskipTests
mkdir -p "$out"

# shellcheck disable=SC2086 # JMH_JAVA_OPTS is a list of options
java ${JMH_JAVA_OPTS:-} -jar "$jar" 'io.github.chash.benchmarks.ring.RingLookupBenchmark' "${jmh_common[@]}" -tu ns \
  -rf csv -rff "$out/lookup.csv" "$@" | tee "$out/lookup.txt"
# shellcheck disable=SC2086
java ${JMH_JAVA_OPTS:-} -jar "$jar" 'io.github.chash.benchmarks.ring.RingBuildBenchmark' "${jmh_common[@]}" -tu us \
  -rf csv -rff "$out/build.csv" "$@" | tee "$out/build.txt"
java -Djdk.attach.allowAttachSelf=true -cp "$jar" io.github.chash.benchmarks.ring.MemoryReport | tee "$out/memory.md"
java -Xmx2g -cp "$jar" io.github.chash.benchmarks.ring.QualityReport | tee "$out/quality.md"

{
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Java: $(java -version 2>&1 | head -n 1)"
  echo "JMH: ${jmh_common[*]} (lookup -tu ns, build -tu us) $*"
  echo
  echo "### Lookup and build"
  echo
  java -cp "$jar" io.github.chash.benchmarks.ring.JmhTables "$out/lookup.csv" "$out/build.csv"
  echo "### Memory"
  echo
  cat "$out/memory.md"
  echo
  echo "### Quality"
  echo
  cat "$out/quality.md"
} > "$out/results.md"
echo "wrote $out/results.md"
