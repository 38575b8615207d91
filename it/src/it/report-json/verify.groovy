import groovy.json.JsonSlurper

def json = new JsonSlurper().parse(new File(basedir, 'target/chash/report.json'))
assert json.algorithm == 'ring'
assert json.hash == 'murmur3'
assert json.pointsPerWeight == 500
assert json.sampleKeys == 100000
assert json.limit == 1.25
assert json.nodes*.id == ['cache-a', 'cache-b', 'cache-c']
assert json.nodes*.weight == [1, 3, 2]
def close = { a, b -> Math.abs((a as double) - (b as double)) < 1e-9 }
assert close(json.nodes*.fairShare.sum(), 1)
assert close(json.nodes*.exactShare.sum(), 1)
assert close(json.nodes*.sampledShare.sum(), 1)
assert json.nodes*.sampledKeys.sum() == 100000
json.nodes.each { n ->
  assert close(n.fairShare, n.weight / 6.0)
  assert close(n.skew, Math.max(n.exactShare / n.fairShare, n.sampledShare / n.fairShare))
  assert close(n.movedIfRemoved, n.exactShare) // ring placement: removal moves exactly the node's keys
  assert n.movedIfRemovedEstimate == 'exact'
}
assert close(json.maxSkew, json.nodes*.skew.max())
assert json.passed == json.violations.isEmpty()
def violating = json.nodes.findAll { it.exactSkew > 1.25 || (it.sampledSkew > 1.25 && it.sampledZ > 3.29) }*.id
assert (json.violations*.node as Set) == (violating as Set)

def html = new File(basedir, 'target/chash/report.html').text
assert html.startsWith('<!DOCTYPE html>')
assert html.contains('<svg') && html.contains('class="load"') && html.contains('class="histogram"')
assert html.contains('<span class="badge ') && html.contains('100,000 sample keys')
assert !html.contains('<script') && !html.contains('<link')

// the what-if run: removing cache-b moves exactly its keys, all to the other two
def whatIf = new JsonSlurper().parse(new File(basedir, 'target/chash-whatif/report.json')).whatIf
assert whatIf.change == 'remove cache-b'
assert whatIf.estimate == 'exact'
assert close(whatIf.movedFraction, json.nodes.find { it.id == 'cache-b' }.exactShare)
assert close(whatIf.idealFraction, 0.5)
assert whatIf.flows*.from.unique() == ['cache-b']
assert whatIf.flows*.to.sort() == ['cache-a', 'cache-c']

def log = new File(basedir, 'build.log').readLines()
assert log.any { it.startsWith('[INFO] chash key distribution of src/main/resources/chash.yaml: 3 nodes, algorithm ring, hash murmur3, pointsPerWeight 500, 100,000 sample keys (orders:{n})') }
assert log.any { it ==~ /\[INFO\] node\s+weight\s+fair share\s+exact share\s+sampled share\s+exact skew\s+sampled skew\s+moved if removed/ }
assert log.any { it.startsWith('[INFO] what if: remove cache-b -> ') && it.contains('(exact; ideal 50.00%)') }
return true
