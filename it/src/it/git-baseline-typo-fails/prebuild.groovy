// A repository whose main has four nodes of weight 2, and a branch "typo" that gives one of them
// weight 20 instead of 2: HEAD is on the branch, as in a pull-request build.
def git(String... args) {
  def command = ['git', '-C', basedir.path, '-c', 'user.name=chash-it', '-c', 'user.email=it@example.com',
                 '-c', 'commit.gpgsign=false'] + args.toList()
  def p = new ProcessBuilder(command).redirectErrorStream(true).start()
  def out = p.inputStream.text
  assert p.waitFor() == 0 : "${command.join(' ')}: ${out}"
}
def config = new File(basedir, 'src/main/resources/chash.yaml')
def yaml = { int c -> """\
nodes:
  - { id: cache-a, type: local, weight: 2 }
  - { id: cache-b, type: local, weight: 2 }
  - { id: cache-c, type: local, weight: ${c} }
  - { id: cache-d, type: local, weight: 2 }
check: { sampleKeys: 100000, keyPattern: "users:{n}" }
""" }
config.parentFile.mkdirs()
config.text = yaml(2)
git('init', '-q', '-b', 'main')
git('add', '-A')
git('commit', '-q', '-m', 'four nodes of weight 2')
git('checkout', '-q', '-b', 'typo')
config.text = yaml(20)
git('commit', '-q', '-a', '-m', 'cache-c: weight 20 (meant 2)')
return true
