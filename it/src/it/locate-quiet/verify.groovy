// Load chash-runtime from the private repository the invoker installed it into: every line must
// be exactly "key<TAB>node" as the runtime's ring places the key, and nothing else may be printed.
def repo = localRepositoryPath as File
def urls = []
['io/github/chash/chash-runtime', 'io/github/chash/chash-ring', 'com/dynatrace/hash4j/hash4j', 'org/snakeyaml/snakeyaml-engine'].each { dir ->
  new File(repo, dir).eachFileRecurse { f -> if (f.name.endsWith('.jar') && !f.name.endsWith('-tests.jar')) urls << f.toURI().toURL() }
}
def loader = new URLClassLoader(urls as URL[], ClassLoader.getPlatformClassLoader())
def config = loader.loadClass('io.github.chash.config.ChashConfigs')
    .getMethod('load', java.nio.file.Path)
    .invoke(null, new File(basedir, 'src/main/resources/chash.yaml').toPath())
def ring = loader.loadClass('io.github.chash.ring.Rings')
    .getMethod('create', loader.loadClass('io.github.chash.ring.RingSettings'), Collection)
    .invoke(null, config.ring(), config.ringNodes())

def expected = (0..<2000).collect { "user:$it\t" + ring.locate("user:$it").id() }
expected << "user:42\t" + ring.locate('user:42').id()
def lines = []
long million = 0
new File(basedir, 'build.log').eachLine('UTF-8') { line ->
  if (line.startsWith('session:')) {
    if (million % 1000 == 0) {
      def key = line.substring(0, line.indexOf('\t'))
      assert line == key + '\t' + ring.locate(key).id()
    }
    assert line == "session:$million" + line.substring(line.indexOf('\t'))
    million++
  } else if (!(line ==~ /(Running|Finished) (pre|post)-build script: .*/)) {
    lines << line
  }
}
assert lines == expected
assert million == 1_000_000
assert expected.collect { it.split('\t')[1] }.unique().size() == 3
return true
