def EXPECTED_LINES = []
def log = new File(basedir, 'build.log').text
def lines = log.readLines()
// the check fails with one error line per violation, and the exception message repeats them
def header = lines.find { it.startsWith('[ERROR] chash check failed: ') }
assert header != null : 'no failure header'
def violations = lines.findAll { it ==~ /\[ERROR\]   node 192\.168\.0\.\d:111: (exact|sampled) share .*/ }
assert !violations.isEmpty()
violations.each { assert it.contains('fair share 33.33%') && it.contains('> limit 1.20') }
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
assert log.contains('BUILD FAILURE')
return true
