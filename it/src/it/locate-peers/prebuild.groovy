// The keys of the peers' reference vectors (PeerVectors.key in chash-ring's tests): 100,000 a
// file, every tenth multi-byte UTF-8; the tagged ones carry {tags} shared by 20 keys each.
def target = new File(basedir, 'target')
target.mkdirs()
new File(target, 'keys-plain.txt').withWriter('UTF-8') { w ->
  (0..<100_000).each { i -> w << (i % 10 == 0 ? "ключ:${i}:é" : "user:${i}") << '\n' }
}
new File(target, 'keys-tagged.txt').withWriter('UTF-8') { w ->
  (0..<100_000).each { i -> w << "user:{${i % 5000}}:${i}" << '\n' }
}
return true
