// pinned: the seeds' ring puts 58.67% of the hash space on one server, and String.hashCode sends
// almost every 10.20.12.x address to another
def EXPECTED_LINES = [
  '[ERROR] chash check failed: 2 violations of maxSkew 1.20:',
  '[ERROR]   node 192.168.0.0:111: exact share 58.67%, fair share 33.33%, skew 1.760 > limit 1.20',
  '[ERROR]   node 192.168.0.1:111: sampled share 99.09%, fair share 33.33%, skew 2.973 > limit 1.20 (z = 381.4 > 3.29 over 100000 keys)',
]
def log = new File(basedir, 'build.log').text
def lines = log.readLines()
// the check fails with one error line per violation, and the exception message repeats them
def header = lines.find { it.startsWith('[ERROR] chash check failed: ') }
assert header != null : 'no failure header'
def violations = lines.findAll { it ==~ /\[ERROR\]   node 192\.168\.0\.\d:111: (exact|sampled) share .*/ }
assert !violations.isEmpty()
violations.each { assert it.contains('fair share 33.33%') && it.contains('> limit 1.20') }
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
// the exception message itself lists the violations, not just the log
assert log =~ /:check \(default\) on project seeds-skew-fails: chash check failed: 2 violations of maxSkew 1\.20:/
assert log.contains('BUILD FAILURE')
return true
