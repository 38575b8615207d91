import groovy.json.JsonSlurper

// the servers named do not exist: validate and report place keys by node id, never connect
def log = new File(basedir, 'build.log').text
assert log.contains('[INFO] chash: src/main/resources/chash.yaml is valid: 4 nodes, algorithm ring, hash xxh3')
def json = new JsonSlurper().parse(new File(basedir, 'target/chash/report.json'))
assert json.nodes*.id == ['cache-c', 'mc-d', 'shard-a', 'shard-b']
assert json.nodes*.sampledKeys.sum() == 50000
json.nodes.each { n -> assert n.sampledKeys > 0 }
assert log.contains('BUILD SUCCESS')
return true
