// cache-3 -> cache-03 keeps the server (same URI and weight): no key needs to move, but a ring derives
// its points from the id, so the renamed node's keys scatter and it takes others'
// pinned: exact (merged position maps), so the fraction depends only on the two configurations
def EXPECTED = '[ERROR] key movement against baseline chash-baseline.yaml: 15.5% of keys move (ideal 0.0%, no key needs to move, limit 1.50x the ideal); cause: node renamed from cache-3 to cache-03'
def lines = new File(basedir, 'build.log').readLines()
assert lines.contains(EXPECTED) : 'missing line: ' + EXPECTED
assert lines.any { it == "[INFO]   (exact: merged both rings' maps of top32(xxh3) positions)" }
def error = lines.find { it.startsWith('[ERROR] key movement against baseline chash-baseline.yaml: ') }
assert error != null : 'no movement failure line'
def m = error =~ /: (\d+\.\d)% of keys move \(ideal 0\.0%, no key needs to move, limit 1\.50x the ideal\); cause: node renamed from cache-3 to cache-03$/
assert m.find() : error
assert (m.group(1) as double) > 10.0
assert lines.any { it.contains('Failed to execute goal') && it.endsWith(error.substring('[ERROR] '.length())) }
return true
