#!/usr/bin/env bash
# One run of every table on the benchmarks page, at one commit, each table with the conditions it
# was measured under: commit, date, load average before and after, JMH settings.
# Results go to benchmarks/target/results/ (the combined markdown is results.md).
#
# Usage (from anywhere): benchmarks/run.sh [section ...]
#   sections: lookup build memory quality hit redis bulk near (default: all, in that order)
# The redis and bulk sections start their own redis-server processes on free loopback ports
# (redis-server must be on the PATH). JMH_JAVA_OPTS adds JVM options to the JMH launcher, e.g.
# -Djmh.ignoreLock=true when another JMH run holds /tmp/jmh.lock (the numbers are then disturbed).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
jar="$here/target/benchmarks.jar"
out="$here/target/results"
table="$here/jmh-table.py"

# The JMH settings of every table: one fork, 3 x 1 s warm-up, 5 x 1 s measurement.
jmh=(-f 1 -wi 3 -w 1s -i 5 -r 1s)
sections=("$@")
[[ ${#sections[@]} -gt 0 ]] || sections=(lookup build memory quality hit redis bulk near)

cd "$root"
./mvnw -B -ntp -q -pl benchmarks -am package -DskipTests
mkdir -p "$out"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!benchmarks/target' || echo '+uncommitted')"

load() { cut -d' ' -f1-3 /proc/loadavg; }

# section NAME DESCRIPTION COMMAND...: runs COMMAND, then writes NAME.conditions next to its output
section() {
  local name="$1" what="$2"
  shift 2
  local before started
  before="$(load)"
  started="$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "== $name: $what"
  "$@"
  {
    echo "- $what"
    echo "- commit $commit, $started, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
    echo "- load average before $before, after $(load)"
    echo "- $(java -version 2>&1 | head -n 1)"
  } > "$out/$name.conditions"
}

# jmh NAME SETTINGS_TEXT ARGS...: a JMH run with the common settings, CSV and text output
jmh() {
  local name="$1" settings="$2"
  shift 2
  # shellcheck disable=SC2086 # JMH_JAVA_OPTS is a list of options
  section "$name" "JMH ${jmh[*]} $settings" \
    java ${JMH_JAVA_OPTS:-} -jar "$jar" "$@" "${jmh[@]}" -rf csv -rff "$out/$name.csv" -o "$out/$name.txt"
}

for s in "${sections[@]}"; do
  case "$s" in
    lookup) jmh lookup "-bm avgt -tu ns" 'ring.RingLookupBenchmark' -bm avgt -tu ns ;;
    build) jmh build "-bm avgt -tu us" 'ring.RingBuildBenchmark' -bm avgt -tu us ;;
    memory) section memory "JOL retained size per virtual point" \
      bash -c "java -Djdk.attach.allowAttachSelf=true -cp '$jar' io.github.chash.benchmarks.ring.MemoryReport > '$out/memory.md'" ;;
    quality) section quality "balance and movement, 1,000,000 keys" \
      bash -c "java -Xmx2g -cp '$jar' io.github.chash.benchmarks.ring.QualityReport > '$out/quality.md'" ;;
    hit) jmh hit "-bm avgt -tu ns -prof gc" 'aspect.HitPathBenchmark' -bm avgt -tu ns -prof gc ;;
    redis)
      jmh redis-2 "-bm thrpt -tu ms -tg 2,2 (both contenders at once, 2 threads each)" \
        'redis.RedisSideBySideBenchmark' -bm thrpt -tu ms -tg 2,2
      jmh redis-8 "-bm thrpt -tu ms -tg 8,8 (both contenders at once, 8 threads each)" \
        'redis.RedisSideBySideBenchmark' -bm thrpt -tu ms -tg 8,8
      jmh redis-latency "-bm sample -tu us -tg 8,8 (both contenders at once, 8 threads each)" \
        'redis.RedisSideBySideBenchmark' -bm sample -tu us -tg 8,8 ;;
    bulk) jmh bulk "-bm thrpt -tu s" 'redis.RedisBulkBenchmark' -bm thrpt -tu s ;;
    near) jmh near "-bm avgt -tu ns" 'redis.NearCacheBenchmark' -bm avgt -tu ns ;;
    *) echo "unknown section $s (lookup build memory quality hit redis bulk near)" >&2; exit 2 ;;
  esac
done

# the tables, each under its conditions
{
  for s in lookup build memory quality hit redis-2 redis-8 redis-latency bulk near; do
    [[ -f "$out/$s.conditions" ]] || continue
    echo "### $s"
    echo
    cat "$out/$s.conditions"
    echo
    case "$s" in
      # the lookup and build tables as the page's charts read them: a column per node count
      lookup) java -cp "$jar" io.github.chash.benchmarks.ring.JmhTables "$out/lookup.csv" ;;
      build) java -cp "$jar" io.github.chash.benchmarks.ring.JmhTables --build "$out/build.csv" ;;
      memory | quality) cat "$out/$s.md" ;;
      hit) python3 "$table" "$out/hit.csv" --ref caffeineFloor ;;
      redis-*) python3 "$table" "$out/$s.csv" --pair Chash:Lettuce ;;
      bulk) python3 "$table" "$out/bulk.csv" --ref lettuceMgetPerServerDecoded ;;
      near) python3 "$table" "$out/near.csv" --ref caffeineFloor ;;
    esac
    echo
  done
} > "$out/results.md"
echo "wrote $out/results.md"
