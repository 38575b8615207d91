import groovy.json.JsonSlurper

def lines = new File(basedir, 'build.log').readLines()
def log = lines.join('\n')
// the parent (pom packaging) and web (no chash.yaml) are skipped with one line per goal
['validate', 'annotations', 'check'].each { goal ->
  assert lines.count { it == "[INFO] chash: skipping ${goal}: no src/main/resources/chash.yaml (a module without one is skipped; name one with -Dchash.config=FILE)".toString() } == 3
  assert lines.count { it == "[INFO] chash: skipping ${goal}: no web/src/main/resources/chash.yaml (a module without one is skipped; name one with -Dchash.config=FILE)".toString() } == 3
}
// the modules with one: every summary names its module's file, in the sequential and the -T 2 builds
assert lines.count { it == '[INFO] chash: orders/src/main/resources/chash.yaml is valid: 3 nodes, algorithm ring, hash xxh3' } == 3
assert lines.count { it == '[INFO] chash: users/src/main/resources/chash.yaml is valid: 4 nodes, algorithm maglev, hash xxh3' } == 3
assert lines.count { it == '[INFO] chash: the annotations in target/classes agree with orders/src/main/resources/chash.yaml' } == 3
assert lines.count { it.startsWith('[INFO] chash check passed for orders/src/main/resources/chash.yaml: max skew ') } == 2
assert lines.count { it.startsWith('[INFO] chash check passed for users/src/main/resources/chash.yaml: max skew ') } == 2
assert lines.count { it.startsWith('[INFO] chash key distribution of orders/src/main/resources/chash.yaml: 3 nodes, algorithm ring') } == 1
assert lines.count { it.startsWith('[INFO] chash key distribution of users/src/main/resources/chash.yaml: 4 nodes, algorithm maglev, hash xxh3, 50,000 sample keys') } == 1
assert log.contains('[INFO] BUILD SUCCESS')
// each report in its own module, with that module's nodes
def orders = new JsonSlurper().parse(new File(basedir, 'orders/target/chash/report.json'))
assert orders.config == 'orders/src/main/resources/chash.yaml'
assert orders.nodes*.id == ['orders-a', 'orders-b', 'orders-c']
def users = new JsonSlurper().parse(new File(basedir, 'users/target/chash/report.json'))
assert users.config == 'users/src/main/resources/chash.yaml'
assert users.nodes*.id == ['users-1', 'users-2', 'users-3', 'users-4']
assert !new File(basedir, 'web/target/chash').exists()
assert !new File(basedir, 'target/chash').exists()
// the failing -T 2 build: each module's failure once, naming its project and file
// (the copies in the stack traces after them come from the invoker's -e)
assert lines.count { it.startsWith('[ERROR] Failed to execute goal') && it.contains('on project orders: chash check failed for orders/src/main/resources/chash.yaml: ') && it.endsWith(' over maxSkew 1.00:') } == 1
assert lines.count { it.startsWith('[ERROR] Failed to execute goal') && it.contains('on project users: chash check failed for users/src/main/resources/chash.yaml: ') } == 1
assert log.contains('BUILD FAILURE')
return true
