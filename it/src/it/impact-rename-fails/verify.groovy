// cache-3 -> cache-03 keeps the server (same URI and weight): no key needs to move, but a ring derives
// its points from the id, so the renamed node's keys scatter and it takes others'
def lines = new File(basedir, 'build.log').readLines()
def error = lines.find { it.startsWith('[ERROR] key movement against baseline chash-baseline.yaml: ') }
assert error != null : 'no movement failure line'
def m = error =~ /: (\d+\.\d)% of keys move \(ideal 0\.0%, no key needs to move, limit 1\.50x the ideal\); cause: node renamed from cache-3 to cache-03$/
assert m.find() : error
assert (m.group(1) as double) > 10.0
assert lines.any { it.contains('Failed to execute goal') && it.endsWith(error.substring('[ERROR] '.length())) }
return true
