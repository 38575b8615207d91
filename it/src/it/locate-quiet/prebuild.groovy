new File(basedir, 'keys.txt').withWriter('UTF-8') { w -> (0..<2000).each { w << "user:$it\n" } }
new File(basedir, 'million.txt').withWriter('UTF-8') { w -> (0..<1_000_000).each { w << "session:$it\n" } }
return true
