// xxh3 -> murmur3 puts every key at a new position: a key stays only when it lands on its old node by
// chance (1/10 with ten equal nodes), so about 90% move, as with a random re-placement
// pinned: the sample keys and both hashes are fixed, so the sampled fraction is too
def EXPECTED = '[ERROR] key movement against baseline chash-baseline.yaml: 89.9% of keys move, as many as a random re-placement (ideal 0.0%, limit 20.0%); cause: hash changed from xxh3 to murmur3'
def lines = new File(basedir, 'build.log').readLines()
assert lines.contains(EXPECTED) : 'missing line: ' + EXPECTED
def error = lines.find { it.startsWith('[ERROR] key movement against baseline chash-baseline.yaml: ') }
assert error != null : 'no movement failure line'
def m = error =~ /: (\d+\.\d)% of keys move, as many as a random re-placement \(ideal 0\.0%, limit 20\.0%\); cause: hash changed from xxh3 to murmur3$/
assert m.find() : error
assert Math.abs((m.group(1) as double) - 90.0) < 1.0
assert lines.any { it.startsWith('[INFO]   (sampled over 200000 keys (key:{n}): the rings place keys at different positions (top32(xxh3) before, top32(murmur3) now))') }
// the failure is the build's error, with the same text
assert lines.any { it.contains('Failed to execute goal io.github.chash:chash-maven-plugin') && it.endsWith(error.substring('[ERROR] '.length())) }
return true
