// Load chash-runtime from the private repository the invoker installed it into, and check that
// chash:locate put every key where the runtime's ring puts it.
def repo = localRepositoryPath as File
def urls = []
['io/github/chash/chash-runtime', 'io/github/chash/chash-ring', 'com/dynatrace/hash4j/hash4j', 'org/snakeyaml/snakeyaml-engine'].each { dir ->
  new File(repo, dir).eachFileRecurse { f -> if (f.name.endsWith('.jar')) urls << f.toURI().toURL() }
}
def loader = new URLClassLoader(urls as URL[], ClassLoader.getPlatformClassLoader())
def config = loader.loadClass('io.github.chash.config.ChashConfigs')
    .getMethod('load', java.nio.file.Path)
    .invoke(null, new File(basedir, 'src/main/resources/chash.yaml').toPath())
def ring = loader.loadClass('io.github.chash.ring.Rings')
    .getMethod('create', loader.loadClass('io.github.chash.ring.RingSettings'), Collection)
    .invoke(null, config.ring(), config.ringNodes())

def keys = new File(basedir, 'keys.txt').readLines().findAll { it }
def located = new File(basedir, 'target/located.tsv').readLines()
assert located.size() == keys.size()
keys.eachWithIndex { key, i ->
  assert located[i] == key + '\t' + ring.locate(key).id()
}
assert located.collect { it.split('\t')[1] }.unique().size() == 3

def log = new File(basedir, 'build.log').readLines()
assert log.contains('[INFO] chash: located ' + keys.size() + ' keys into target/located.tsv')
// on standard output, not the log: no [INFO] prefix
assert log.contains('10.20.12.1\t' + ring.locate('10.20.12.1').id())
assert !log.contains('[INFO] 10.20.12.1')
return true
