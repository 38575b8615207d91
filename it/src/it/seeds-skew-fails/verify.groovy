// pinned: the seeds' ring puts 58.67% of the hash space on one server, and String.hashCode sends
// almost every 10.20.12.x address to another
// one line per node over the limit, the worst first, its exact and sampled shares together, with
// what to do; printed once, as the build's failure (the copies after it are -e's stack trace)
def EXPECTED_LINES = [
  '[ERROR]   node 192.168.0.1:111: sampled share 99.09% (z = 381.4 > 3.29 over 100,000 keys), exact share 20.66%, fair share 33.33%: skew 2.973 > limit 1.20; fix: hash jdk spreads keys like 10.20.12.{n} unevenly: use hash xxh3 (it moves every key once); if this skew is acceptable, raise check.maxSkew (now 1.20)',
  '[ERROR]   node 192.168.0.0:111: exact share 58.67%, sampled share 0.01% (z = -258.1 over 100,000 keys), fair share 33.33%: skew 1.760 > limit 1.20; fix: raise ring.pointsPerWeight from 3 to 200 or more (a node\'s share varies as 1/sqrt(its points)), or use algorithm maglev; if this skew is acceptable, raise check.maxSkew (now 1.20)',
]
def log = new File(basedir, 'build.log').text
def lines = log.readLines()
EXPECTED_LINES.each { assert lines.count(it) == 1 : "missing line: " + it }
assert lines.count { it.startsWith('[ERROR] Failed to execute goal io.github.chash:chash-maven-plugin:') && it.endsWith(':check (default) on project seeds-skew-fails: chash check failed for src/main/resources/chash.yaml: 2 nodes over maxSkew 1.20:') } == 1
assert lines.findAll { it ==~ /\[ERROR\]   node 192\.168\.0\.\d:111: .*/ }.size() == 2
assert log.contains('BUILD FAILURE')
return true
