def log = new File(basedir, 'build.log').text
assert log.contains('[INFO] chash: src/main/resources/chash.yaml is valid: 4 nodes, algorithm ring, hash xxh3')
def passed = log.readLines().find { it.startsWith('[INFO] chash check passed for src/main/resources/chash.yaml: max skew ') }
assert passed != null
def m = passed =~ /max skew (\d+\.\d+) on cache-[a-d] \(largest exact (\d+\.\d+), largest sampled (\d+\.\d+) over 200,000 keys\), limit 1\.20/
assert m.find()
assert (m.group(1) as double) <= 1.20
// no sampled share is over the limit: the exact skew decides, and there is no noise to explain
assert m.group(1) == m.group(2)
assert (m.group(3) as double) <= 1.20 && !passed.contains('sampling noise')
assert log.contains('BUILD SUCCESS')
return true
