def EXPECTED_LINES = [
  '[ERROR]   com.acme.OrderService.invoices(String): @ShardedCacheable names cache "invoices", which src/main/resources/chash.yaml does not define; caches are: users, orders',
  '[ERROR]   com.acme.OrderService.rename(String, String): @ShardedCacheEvict key expression "#custmer" at position 1: no parameter named custmer; parameters are: customer, newName',
]
def lines = new File(basedir, 'build.log').readLines()
EXPECTED_LINES.each { assert lines.count(it) == 1 : "missing line: " + it }
assert lines.any { it.startsWith('[ERROR] Failed to execute goal') && it.endsWith(':annotations (default) on project annotation-scan-fails: chash annotations disagree with src/main/resources/chash.yaml: 2 problems:') }
assert !lines.any { it.contains('OrderService.summary') } : 'a correct annotation was reported'
assert lines.any { it.contains('BUILD FAILURE') }
return true
