// each self-merging file is refused at its alias, with its file:line:column
def EXPECTED_LINES = [
  '[ERROR] node/src/main/resources/chash.yaml:2:21: alias *n is inside its own anchor &n; a value cannot contain itself',
  '[ERROR] top/src/main/resources/chash.yaml:1:12: alias *x is inside its own anchor &x; a value cannot contain itself',
  '[ERROR] caches/src/main/resources/chash.yaml:1:25: alias *c is inside its own anchor &c; a value cannot contain itself',
]
def lines = new File(basedir, 'build.log').readLines()
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
// the reactor summary: every module failed, none skipped; its times are printed for the record
def summary = lines.findAll { it ==~ /\[INFO\] self-merge-(node|top|caches) \.+ .*/ }
assert summary.size() == 3 : summary
summary.each { assert it.contains('FAILURE') : it; println it }
assert lines.any { it.contains('BUILD FAILURE') }
return true
