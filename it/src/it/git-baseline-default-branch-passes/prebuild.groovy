// main: four nodes, then a fifth added (the change was reviewed and merged); HEAD is main.
def git(String... args) {
  def command = ['git', '-C', basedir.path, '-c', 'user.name=chash-it', '-c', 'user.email=it@example.com',
                 '-c', 'commit.gpgsign=false'] + args.toList()
  def p = new ProcessBuilder(command).redirectErrorStream(true).start()
  def out = p.inputStream.text
  assert p.waitFor() == 0 : "${command.join(' ')}: ${out}"
}
def config = new File(basedir, 'src/main/resources/chash.yaml')
def yaml = { int n -> 'nodes:\n' + (0..<n).collect { "  - { id: cache-$it, type: local }\n" }.join() +
    'check: { sampleKeys: 100000, keyPattern: "users:{n}" }\n' }
config.parentFile.mkdirs()
config.text = yaml(4)
git('init', '-q', '-b', 'main')
git('add', '-A')
git('commit', '-q', '-m', 'four nodes')
config.text = yaml(5)
git('commit', '-q', '-a', '-m', 'cache-4 joins')
return true
