def EXPECTED_LINES = [
  '[ERROR] chash.yaml:2:14: ring.algorithm must be one of ring, ketama, maglev, rendezvous, jump, jedis; was "ketma"',
  '[ERROR] chash.yaml:7:13: nodes[0].weight must be a positive integer, was -1',
  '[ERROR] chash.yaml:8:9: nodes[1].id "cache-a" is already used by nodes[0]',
]
def lines = new File(basedir, 'build.log').readLines()
def problems = lines.findAll { it ==~ /\[ERROR\] chash\.yaml:\d+:\d+: .+/ }
assert problems.size() >= 3 : problems
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
assert lines.any { it.contains('BUILD FAILURE') }
return true
