// every problem on its own line, named by its path from the build's root, printed once
def EXPECTED_LINES = [
  '[ERROR] src/main/resources/chash.yaml:2:14: ring.algorithm must be one of ring, ketama, maglev, rendezvous, jump, jedis; was "ketma"',
  '[ERROR] src/main/resources/chash.yaml:7:13: nodes[0].weight must be a positive integer, was -1',
  '[ERROR] src/main/resources/chash.yaml:8:9: nodes[1].id "cache-a" is already used by nodes[0]',
]
def lines = new File(basedir, 'build.log').readLines()
def problems = lines.findAll { it ==~ /\[ERROR\] src\/main\/resources\/chash\.yaml:\d+:\d+: .+/ }
assert problems.size() == 3 : problems
assert lines.any { it.endsWith('on project malformed-validate-fails: src/main/resources/chash.yaml has 3 problems:') }
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
assert lines.any { it.contains('BUILD FAILURE') }
return true
