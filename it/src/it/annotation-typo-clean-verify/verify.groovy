def lines = new File(basedir, 'build.log').readLines()
def log = lines.join('\n')
// 1: the clean build fails at process-classes, on the classes it has just compiled
assert lines.any { it.contains('on project annotation-typo-clean-verify: chash annotations disagree with src/main/resources/chash.yaml: 1 problem:') }
assert lines.count('[ERROR]   com.acme.Catalog.product(String): @ShardedCacheable names cache "prodcts", which src/main/resources/chash.yaml does not define; caches are: products') == 1
assert log.contains('BUILD FAILURE')
// 2: the typo fixed, no clean: the recompiled class passes, and so does the rest of the build
assert lines.contains('[INFO] chash: the annotations in target/classes agree with src/main/resources/chash.yaml')
assert lines.any { it.startsWith('[INFO] chash check passed for src/main/resources/chash.yaml: ') }
assert log.contains('BUILD SUCCESS')
return true
