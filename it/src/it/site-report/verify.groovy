def page = new File(basedir, 'target/site/chash-report.html')
assert page.isFile() : 'no Key distribution page'
def html = page.text
assert html.contains('Key distribution')
assert html.contains('<svg') && html.contains('class="load"') && html.contains('class="histogram"')
['cache-a', 'cache-b', 'cache-c', 'cache-d'].each { assert html.contains(it) }
assert html.contains('<span class="badge pass">PASSED</span>') && html.contains('max skew ')
return true
