import groovy.json.JsonSlurper

// the baseline is release 1.0's jar, installed by setup-impact-baseline-release
def b = new JsonSlurper().parse(new File(basedir, 'target/chash/report.json')).baseline
assert b.source == 'io.github.chash.it:impact-baseline-release:1.0'
assert b.exact == true
assert Math.abs(b.idealMoved - 1.0d / 11) < 1e-12
assert Math.abs(b.movedFraction - 1.0d / 11) < 0.05 / 11
assert b.causes*.message == ['node added: cache-10']
assert b.passed == true
def lines = new File(basedir, 'build.log').readLines()
assert lines.any { it.startsWith('[INFO] chash key movement of src/main/resources/chash.yaml against baseline io.github.chash.it:impact-baseline-release:1.0: ') && it.endsWith('; cause: node added: cache-10') }
assert lines.any { it.startsWith('[INFO] chash check passed for src/main/resources/chash.yaml: ') }
return true
