import groovy.json.JsonSlurper

def lines = new File(basedir, 'build.log').readLines()
assert lines.contains('[INFO] chash: src/main/resources/chash.yaml is valid: 10,000 nodes, algorithm ring, hash xxh3')
assert lines.any { it ==~ /\[INFO\] chash check passed for src\/main\/resources\/chash\.yaml: max skew 1\.\d{3} on cache-\d+ \(largest exact 1\.\d{3}, largest sampled 1\.\d{3} over 1,000,000 keys\), limit 1\.20.*/ }

// the report: a summary, the 10 worst nodes, the verdict naming the worst
int start = lines.findIndexOf { it.startsWith('[INFO] chash key distribution of src/main/resources/chash.yaml: ') }
assert start >= 0
assert lines[start] == '[INFO] chash key distribution of src/main/resources/chash.yaml: 10,000 nodes, algorithm ring, hash xxh3, pointsPerWeight 1000, 1,000,000 sample keys (key:{n})'
assert lines[start + 1] == '[INFO] the 10 nodes of largest skew (exact, or sampled beyond sampling noise), of 10,000 (all in report.json and report.html; -Dchash.top=N lists more):'
assert lines[start + 2] ==~ /\[INFO\] node\s+weight\s+fair share\s+exact share\s+sampled share\s+exact skew\s+sampled skew\s+moved if removed/
def rows = lines.subList(start + 3, start + 13)
rows.each { assert it ==~ /\[INFO\] cache-\d+\s+[123]\s+0\.0\d{4}%\s+0\.0\d{4}%\s+0\.0\d{4}%\s+\d\.\d{3}\s+\d\.\d{3}\s+0\.0\d{4}%\s*/ : it }
// a million keys over 21,000 weight units are noise per node: the exact skew decides the order
def skews = rows.collect { (it =~ /%\s+(\d\.\d{3})\s+\d\.\d{3}\s/)[0][1] as double }
assert skews == skews.sort(false).reverse()
def verdict = lines[start + 13]
def worst = (rows[0] =~ /\] (cache-\d+) /)[0][1]
def topExact = (rows[0] =~ /%\s+(\d\.\d{3})\s+\d\.\d{3}\s/)[0][1]
assert verdict ==~ /\[INFO\] max skew ${topExact.replace('.', '\\.')} on ${worst}, limit 1\.20: passed \(sampled skews up to 1\.\d{3} are within sampling noise\)/ : verdict

def json = new JsonSlurper().parse(new File(basedir, 'target/chash/report.json'))
assert json.nodes.size() == 10_000
assert json.nodes*.weight.sum() == 21_000
assert json.pointsPerWeight == 1000 && json.passed == true && json.worstNode == worst
// natural order: cache-9 before cache-10
assert json.nodes[9].id == 'cache-9' && json.nodes[10].id == 'cache-10'
def html = new File(basedir, 'target/chash/report.html')
assert html.length() < 1_200_000 : "report.html is ${html.length()} bytes"
def text = html.text
assert text.count('<rect') < 100
assert text.contains('data-nodes="10000" data-shown="25"')
assert (text =~ /data-count="(\d+)"/).collect { it[1] as int }.sum() == 10_000
return true
