def EXPECTED_LINES = [
  '[ERROR] com.acme.OrderService.invoices(String): @ShardedCacheable names cache "invoices", which chash.yaml does not define; caches are: users, orders',
  '[ERROR] com.acme.OrderService.rename(String, String): @ShardedCacheEvict key expression "#custmer" at position 1: no parameter named custmer; parameters are: customer, newName',
]
def lines = new File(basedir, 'build.log').readLines()
EXPECTED_LINES.each { assert lines.contains(it) : "missing line: " + it }
assert lines.any { it.contains('chash annotations disagree with chash.yaml: 2 problems:') }
assert !lines.any { it.contains('OrderService.summary') } : 'a correct annotation was reported'
assert lines.any { it.contains('BUILD FAILURE') }
return true
