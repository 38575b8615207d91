def EXPECTED_LINES = []
def lines = new File(basedir, 'build.log').readLines()
def problems = lines.findAll { it ==~ /\[ERROR\] chash\.yaml:\d+:\d+: .+/ }
assert problems.size() >= 3 : problems
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
assert lines.any { it.contains('BUILD FAILURE') }
return true
