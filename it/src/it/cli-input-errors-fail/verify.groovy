// (invocation 4 passes its comma list through MAVEN_OPTS: invoker splits goals at commas)
// Each bad input fails before any analysis, with chash's own message naming property and value
// (not Maven's "Unable to parse configuration of mojo" nor an "Execution ... failed" stack).
def log = new File(basedir, 'build.log').text
[
  'chash.maxSkew must be a number, was "abc"',
  "chash.outputDirectory ${new File(basedir, 'pom.xml')} is a file; name a directory",
  'chash.key must not be empty, was ""',
  'cannot remove cache-a, cache-b, cache-c, cache-d: no node would be left in the ring',
].each { assert log.contains(it) : "missing: " + it }
assert !log.contains('Unable to parse configuration')
assert !log.contains('chash key distribution')
return true
