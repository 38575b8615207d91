def lines = new File(basedir, 'build.log').readLines()
// 1: the default branch compares with itself: nothing moves, the build passes
assert lines.any { it ==~ /\[INFO\] chash: baseline git:main@[0-9a-f]{7,}: src\/main\/resources\/chash\.yaml as committed at [0-9a-f]{7,}, HEAD itself \(a build of main compares with itself\)/ }
assert lines.any { it ==~ /\[INFO\] chash key movement of src\/main\/resources\/chash\.yaml against baseline git:main@[0-9a-f]{7,}: 0\.00% of keys move \(exact\), ideal 0\.00%, 1\.00x the ideal; no change/ }
// 2: against the commit before the merge: one node joining four moves about a fifth, all to it
def joined = lines.find { it ==~ /\[INFO\] chash key movement of src\/main\/resources\/chash\.yaml against baseline git:HEAD~1@[0-9a-f]{7,}: .*/ }
assert joined != null
def m = joined =~ /: (\d+\.\d\d)% of keys move \(exact\), ideal 20\.00%, (\d\.\d\d)x the ideal; cause: node added: cache-4$/
assert m.find() : joined
assert Math.abs((m.group(1) as double) - 20.0) < 2.0
assert lines.count { it.startsWith('[INFO] chash check passed for src/main/resources/chash.yaml: max skew ') } == 2
assert lines.count { it.contains('BUILD SUCCESS') } == 2
return true
