// Every chash:locate output must place the keys exactly as the peer: the SHA-256 of the owners'
// list positions (one 4-byte big-endian int per key, as PeerVectors.digest) equals the peer's.
import java.security.MessageDigest

def repo = localRepositoryPath as File
def urls = []
['io/github/chash/chash-runtime', 'io/github/chash/chash-ring', 'com/dynatrace/hash4j/hash4j', 'org/snakeyaml/snakeyaml-engine'].each { dir ->
  new File(repo, dir).eachFileRecurse { f -> if (f.name.endsWith('.jar') && !f.name.contains('tests')) urls << f.toURI().toURL() }
}
def loader = new URLClassLoader(urls as URL[], ClassLoader.getPlatformClassLoader())
def configs = loader.loadClass('io.github.chash.config.ChashConfigs')

def failures = []
def checked = 0
new File(basedir, 'expected.tsv').readLines('UTF-8').findAll { it && !it.startsWith('#') }.each { line ->
  def (name, style, sha) = line.split('\t')
  def config = configs.getMethod('load', java.nio.file.Path).invoke(null, new File(basedir, "configs/${name}.yaml").toPath())
  def position = [:]
  config.nodes().eachWithIndex { node, i -> position[node.id()] = i }
  def keys = new File(basedir, "target/keys-${style}.txt").readLines('UTF-8')
  def located = new File(basedir, "target/located/${name}.tsv").readLines('UTF-8')
  assert located.size() == 100_000 : "${name}: ${located.size()} lines"
  def digest = MessageDigest.getInstance('SHA-256')
  located.eachWithIndex { l, i ->
    def tab = l.lastIndexOf('\t')
    assert l.substring(0, tab) == keys[i] : "${name}: line ${i + 1} is ${l}"
    int owner = position[l.substring(tab + 1)]
    digest.update([(owner >>> 24) as byte, (owner >>> 16) as byte, (owner >>> 8) as byte, owner as byte] as byte[])
  }
  def actual = digest.digest().encodeHex().toString()
  if (actual != sha) {
    failures << "${name}: placements ${actual}, peer ${sha}"
  }
  checked++
}
assert checked == 9
assert failures.isEmpty() : failures.join('\n')
return true
