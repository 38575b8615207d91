// xxh3 -> murmur3 puts every key at a new position: a key stays only when it lands on its old node by
// chance (1/10 with ten equal nodes), so about 90% move, as with a random re-placement
// pinned: the sample keys and both hashes are fixed, so the sampled fraction is too
def EXPECTED = '[ERROR]   key movement against baseline chash-baseline.yaml: 89.9% of keys move, as many as a random re-placement (ideal 0.0%, limit 20.0%; no key needs to move, limit 2.00x the ideal); cause: hash changed from xxh3 to murmur3; fix: restore the hash unless the change is intended; if the change is intended, update the baseline chash-baseline.yaml or build this once with -Dchash.baseline=none'
def lines = new File(basedir, 'build.log').readLines()
assert lines.contains(EXPECTED) : 'missing line: ' + EXPECTED
def error = lines.find { it.startsWith('[ERROR]   key movement against baseline chash-baseline.yaml: ') }
assert error != null : 'no movement failure line'
def m = error =~ /: (\d+\.\d)% of keys move, as many as a random re-placement \(ideal 0\.0%, limit 20\.0%; no key needs to move, limit 2\.00x the ideal\); cause: hash changed from xxh3 to murmur3; fix: /
assert m.find() : error
assert Math.abs((m.group(1) as double) - 90.0) < 1.0
assert lines.any { it.startsWith('[INFO] chash key movement of src/main/resources/chash.yaml against baseline chash-baseline.yaml: 89.87% of keys move (sampled over 200,000 keys), ideal 0.00%, infinitely more than the ideal, as many as a random re-placement; cause: hash changed from xxh3 to murmur3') }
// the failure is the build's error, printed once (the copies after it are -e's stack trace)
assert lines.any { it.contains('Failed to execute goal io.github.chash:chash-maven-plugin') && it.endsWith('on project impact-hash-fails: chash check failed for src/main/resources/chash.yaml: key movement over its limits:') }
assert lines.count(EXPECTED) == 1
return true
