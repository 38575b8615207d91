def jar = new File(localRepositoryPath, 'io/github/chash/it/impact-baseline-release/1.0/impact-baseline-release-1.0.jar')
assert jar.isFile() : "not installed: " + jar
def zip = new java.util.zip.ZipFile(jar)
try {
  assert zip.getEntry('chash.yaml') != null
} finally {
  zip.close()
}
return true
