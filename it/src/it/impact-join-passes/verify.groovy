import groovy.json.JsonSlurper

// one node joining ten: the ideal is 1/11, and a ring moves just the new node's arcs
def ideal = 1.0d / 11
def b = new JsonSlurper().parse(new File(basedir, 'target/chash/report.json')).baseline
assert b.source == 'chash-baseline.yaml'
assert b.exact == true
assert b.sampleKeys == 0
assert Math.abs(b.idealMoved - ideal) < 1e-12
assert Math.abs(b.movedFraction - ideal) < 0.05 * ideal : "moved ${b.movedFraction} not within 5% of 1/11"
assert Math.abs(b.movedOverIdeal - b.movedFraction / ideal) < 1e-9
assert b.maxMoved == 0.2 && b.maxMovedOverIdeal == 1.5
assert b.passed == true && b.violation == null
assert b.causes == [[kind: 'added', message: 'node added: cache-10']]
assert (b.nodes*.id as Set) == ((0..10).collect { "cache-$it".toString() } as Set)
def fresh = b.nodes.find { it.id == 'cache-10' }
assert fresh.before == 0 && Math.abs(fresh.gained - b.movedFraction) < 1e-12
b.nodes.findAll { it.id != 'cache-10' }.each { assert it.gained == 0 && it.lost > 0 }
assert Math.abs(b.nodes*.lost.sum() - b.movedFraction) < 1e-12
assert b.flows*.to.unique() == ['cache-10']

def lines = new File(basedir, 'build.log').readLines()
def pct = String.format(Locale.ROOT, '%.2f%%', b.movedFraction * 100)
def summary = "[INFO] chash key movement of src/main/resources/chash.yaml against baseline chash-baseline.yaml: ${pct} of keys move (exact), ideal 9.09%, " +
    String.format(Locale.ROOT, '%.2fx', b.movedOverIdeal) + ' the ideal; cause: node added: cache-10'
assert lines.count(summary.toString()) == 2 : 'check and report both print: ' + summary // check, then report
assert lines.any { it.startsWith('[INFO] chash check passed for src/main/resources/chash.yaml: ') }
assert lines.any { it == '[INFO]   limits maxMoved 20.0%, maxMovedOverIdeal 1.50: passed' }
assert new File(basedir, 'target/chash/report.html').text.contains('<h2>Against baseline chash-baseline.yaml <span class="badge pass">PASSED</span></h2>')
return true
