#!/usr/bin/env bash
# Regenerates the peers' reference vectors in
# chash-runtime/src/test/resources/io/github/chash/ring/peers/ and prints, per case, how many of
# 100,000 keys chash places differently from the peer (before the compat work, and now).
#
# Needs: redis-server and nutcracker (apt-get install redis-server nutcracker), gcc, and a checkout
# of libketama's sources (RJ/ketama on GitHub, commit 18cf9a7) in LIBKETAMA_SRC=.../libketama;
# without LIBKETAMA_SRC the libketama vectors are left as they are.
# Usage (from anywhere): benchmarks/compat/generate-vectors.sh [peer ...]
#   peers: jedis-3.10.0 jedis-4.4.8 jedis-5.2.0 spymemcached twemproxy libketama (default: all)
# The difference table also goes to benchmarks/target/peer-differences.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

# benchmarks.jar, and the Jedis releases copied into benchmarks/target/peers/ (profile peer-vectors)
./mvnw -B -ntp -q -pl benchmarks -am -Ppeer-vectors package -DskipTests

peers=("$@")
if [ ${#peers[@]} -eq 0 ]; then
  peers=(jedis-3.10.0 jedis-4.4.8 jedis-5.2.0 spymemcached twemproxy)
  if [ -n "${LIBKETAMA_SRC:-}" ]; then peers+=(libketama); fi
fi

java -cp benchmarks/target/benchmarks.jar io.github.chash.benchmarks.compat.PeerVectorGenerator \
  chash-runtime/src/test/resources/io/github/chash/ring/peers benchmarks/target/peers "${LIBKETAMA_SRC:--}" \
  "${peers[@]}" | tee benchmarks/target/peer-differences.md
