// 10,000 nodes, 40% of weight 3, 30% of weight 2, 30% of weight 1: 21,000 weight units, so the
// default 1000 points per weight give 21 million points; nothing else is configured
def config = new File(basedir, 'src/main/resources/chash.yaml')
config.parentFile.mkdirs()
config.withWriter('UTF-8') { w ->
  w << 'nodes:\n'
  (0..<10_000).each { i ->
    int weight = i % 10 < 4 ? 3 : i % 10 < 7 ? 2 : 1
    w << "  - { id: cache-$i, type: local, weight: $weight }\n"
  }
}
return true
