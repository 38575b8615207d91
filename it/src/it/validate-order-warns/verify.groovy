// The reordered unnamed shards are named with their old and new positions; the named one, whose
// points come from its name, is not; the build passes (a warning, not an error).
def lines = new File(basedir, 'build.log').readLines()
def expected = '[WARNING] chash: against baseline baseline.yaml, node order changed: cache-a (nodes[0] -> nodes[1]),' +
    ' cache-b (nodes[1] -> nodes[0]) (jedis names an unnamed shard\'s points by its list position, so their keys move)'
assert lines.contains(expected) : lines.findAll { it.contains('chash') }.join('\n')
assert lines.count { it.startsWith('[WARNING] chash:') } == 1
assert lines.contains('[INFO] chash: chash.yaml is valid: 3 nodes, algorithm jedis, hash murmur64a-jedis')
assert lines.any { it.contains('BUILD SUCCESS') }
return true
