/**
 * The {@code chash.yaml} configuration: an immutable model ({@link
 * io.github.chash.config.ChashConfig} and its parts), the parser and validator ({@link
 * io.github.chash.config.ChashConfigs}). Its text helpers (durations, {@code ${env:NAME}}
 * placeholders, Redis URI parts) live in {@code io.github.chash.internal.text}, which the module
 * does not export. This package describes and validates; it builds no caches and opens no
 * connections.
 *
 * <h2>Where the file is</h2>
 *
 * {@code src/main/resources/chash.yaml}: the runtime reads it from the class path with {@link
 * io.github.chash.config.ChashConfigs#loadFromClasspath()}, the Maven plugin from the project. The
 * file is UTF-8, one YAML document, at most 2 MiB.
 *
 * <h2>Example</h2>
 *
 * <pre>{@code
 * ring:
 *   algorithm: ring          # ring | ketama | maglev | rendezvous | jump | jedis
 *   hash: xxh3               # xxh3 | murmur3 | fnv1a64 | md5 | fnv1-32 | jdk
 *   pointsPerWeight: 1000    # ring and ketama only
 * nodes:
 *   - id: local-a
 *     type: local
 *     weight: 1
 *     maximumSize: 10000
 *   - id: cache-1
 *     type: redis
 *     uri: rediss://default:${env:REDIS_PASSWORD}@cache-1.example.com:6380/0
 *     weight: 2
 * caches:
 *   users: { ttl: 10m }
 *   reports: {}              # no expiry
 * failover: { failureLimit: 3, retryAfter: 30s, timeout: 100ms, onRejoin: flush }
 * redis:
 *   keyPrefix: "chash:"
 *   codec: jdk
 *   allow: [com.example.model.*]
 * check:
 *   maxSkew: 1.20
 *   sampleKeys: 1000000
 *   keyPattern: "users:{n}"  # or keysFile: keys.txt
 *   baseline: com.example:service:1.4.0
 *   maxMoved: 0.15
 *   maxMovedOverIdeal: 1.5
 * }</pre>
 *
 * <h2>Keys</h2>
 *
 * Only {@code nodes} is required; every other key has the default shown. A block that is present
 * but empty ({@code failover:}) means all its defaults.
 *
 * <table>
 *   <caption>chash.yaml keys</caption>
 *   <tr><th>key</th><th>value</th><th>default</th></tr>
 *   <tr><td>{@code ring.algorithm}</td><td>{@code ring}, {@code ketama}, {@code maglev},
 *       {@code rendezvous}, {@code jump} or {@code jedis} (see {@link io.github.chash.ring.Algorithm})</td>
 *       <td>{@code ring}</td></tr>
 *   <tr><td>{@code ring.hash}</td><td>{@code xxh3}, {@code murmur3}, {@code fnv1a64}, {@code md5},
 *       {@code fnv1-32} or {@code jdk}; {@code ketama} always uses {@code md5} and accepts only
 *       that</td><td>{@code xxh3} ({@code md5} for ketama)</td></tr>
 *   <tr><td>{@code ring.compat}</td><td>{@code spymemcached}, {@code spymemcached-weighted},
 *       {@code twemproxy} or {@code libketama}; only for {@code ketama}: the client whose
 *       point counts and server names it reproduces (see {@link io.github.chash.ring.KetamaCompat})
 *       </td><td>{@code spymemcached}</td></tr>
 *   <tr><td>{@code ring.keyTags}</td><td>{@code true} or {@code false}; only for {@code jedis}:
 *       hash a key's first {@code {tag}} as Jedis' default key tag pattern</td>
 *       <td>{@code false}</td></tr>
 *   <tr><td>{@code ring.pointsPerWeight}</td><td>integer 1..10000, virtual points per unit of
 *       weight; only for {@code ring} and {@code ketama}; the ring may have at most 32,000,000
 *       points in all (sum of weights, for ketama the node count, times pointsPerWeight)</td>
 *       <td>1000 (ketama: 160)</td></tr>
 *   <tr><td>{@code nodes}</td><td>list of at least one node</td><td>required</td></tr>
 *   <tr><td>{@code nodes[i].id}</td><td>non-empty string, unique, no leading or trailing white
 *       space; virtual points derive from it, so renaming a node moves its keys</td>
 *       <td>required</td></tr>
 *   <tr><td>{@code nodes[i].name}</td><td>non-empty string, unique; only for {@code ketama} and
 *       {@code jedis}: what the node's points derive from instead of the id (a twemproxy server
 *       name, a Jedis shard name, a spymemcached node key)</td><td>none</td></tr>
 *   <tr><td>{@code nodes[i].type}</td><td>{@code local} (an in-process Caffeine shard) or
 *       {@code redis}</td><td>{@code local}</td></tr>
 *   <tr><td>{@code nodes[i].weight}</td><td>positive integer; the node's fair share is weight /
 *       total weight; must be 1 for {@code jump}</td><td>1</td></tr>
 *   <tr><td>{@code nodes[i].maximumSize}</td><td>positive integer, entry bound of a local shard;
 *       local nodes only</td><td>10000</td></tr>
 *   <tr><td>{@code nodes[i].uri}</td><td>{@code redis://} or {@code rediss://} (TLS) URI:
 *       {@code [user:]password@} (password only as {@code ${env:NAME}}), host, port 1..65535
 *       (default 6379), {@code /db} (default 0); no query; {@code ${env:NAME}} may stand for any
 *       part; no two nodes may point to the same host, port and database; redis nodes only</td>
 *       <td>required for redis</td></tr>
 *   <tr><td>{@code nodes[i].readFrom}</td><td>{@code primary} or {@code replicaPreferred}
 *       (reads from a replica, except keys this JVM wrote that a replica may lack); {@code
 *       replicaPreferred} only for a {@code redis-sentinel://} node</td><td>{@code primary}</td></tr>
 *   <tr><td>{@code nodes[i].replicaLag}</td><td>positive duration: how often the replicas'
 *       replication offsets are read, which tell when a key this JVM wrote may be read from a
 *       replica again; only with {@code replicaPreferred}</td><td>1s</td></tr>
 *   <tr><td>{@code caches.NAME}</td><td>a cache used by the annotations; NAME non-empty, without
 *       {@code :}</td><td>no caches</td></tr>
 *   <tr><td>{@code caches.NAME.ttl}</td><td>positive duration</td><td>no expiry</td></tr>
 *   <tr><td>{@code caches.NAME.keys}</td><td>{@code prefixed} or {@code verbatim} (the key as
 *       given, no prefix; needs a ttl)</td><td>{@code prefixed}</td></tr>
 *   <tr><td>{@code caches.NAME.codec}</td><td>{@code jdk}, {@code jackson}, {@code string},
 *       {@code bytes}</td><td>the node block's</td></tr>
 *   <tr><td>{@code caches.NAME.near.maximumSize}</td><td>positive integer: entries kept in this
 *       JVM in front of remote nodes; required in a {@code near} block</td><td>no near
 *       cache</td></tr>
 *   <tr><td>{@code caches.NAME.near.ttl}</td><td>positive duration a near entry is served at most;
 *       required in a {@code near} block</td><td>no near cache</td></tr>
 *   <tr><td>{@code caches.NAME.near.invalidation}</td><td>{@code server} (every node reports
 *       changes: Redis {@code CLIENT TRACKING}) or {@code ttl} (nodes that cannot are bounded by
 *       {@code near.ttl})</td><td>{@code server}</td></tr>
 *   <tr><td>{@code failover.failureLimit}</td><td>positive integer: consecutive failures that
 *       eject a node</td><td>3</td></tr>
 *   <tr><td>{@code failover.retryAfter}</td><td>positive duration an ejected node stays out</td>
 *       <td>{@code 30s}</td></tr>
 *   <tr><td>{@code failover.timeout}</td><td>positive duration, command timeout of a remote
 *       node; slower is a miss</td><td>{@code 100ms}</td></tr>
 *   <tr><td>{@code failover.onRejoin}</td><td>{@code flush} (delete this library's keys before
 *       readmitting) or {@code keep}</td><td>{@code flush}</td></tr>
 *   <tr><td>{@code redis.keyPrefix}</td><td>non-empty prefix of every key written</td>
 *       <td>{@code chash:}</td></tr>
 *   <tr><td>{@code redis.codec}</td><td>{@code jdk} (serialization behind an allow-list) or
 *       {@code jackson}</td><td>{@code jdk}</td></tr>
 *   <tr><td>{@code redis.allow}</td><td>list of {@link java.io.ObjectInputFilter} class patterns
 *       the JDK codec may read, matched before the classes of the packages {@code java.lang},
 *       {@code java.util}, {@code java.time} and {@code java.math} (not their subpackages), which
 *       it always reads: {@code com.example.Order}, {@code com.example.*} (package), {@code
 *       com.example.**} (and subpackages), {@code !com.example.Bad}; {@code *} and {@code **} are
 *       refused</td><td>none</td></tr>
 *   <tr><td>{@code check.maxSkew}</td><td>number &gt;= 1.0: largest allowed node share / fair
 *       share</td><td>1.20</td></tr>
 *   <tr><td>{@code check.sampleKeys}</td><td>integer 1..100000000, keys sampled</td>
 *       <td>1000000</td></tr>
 *   <tr><td>{@code check.keyPattern}</td><td>synthetic sample keys, must contain {@code {n}}
 *       (replaced by 0, 1, 2, ...); excludes {@code keysFile}</td><td>{@code key:{n}}</td></tr>
 *   <tr><td>{@code check.keysFile}</td><td>file of real keys, one a line, relative to the
 *       config file; excludes {@code keyPattern}</td><td>none</td></tr>
 *   <tr><td>{@code check.baseline}</td><td>configuration to compare against: a file, or
 *       {@code groupId:artifactId:version} of an artifact holding a {@code chash.yaml}</td>
 *       <td>none</td></tr>
 *   <tr><td>{@code check.maxMoved}</td><td>fraction in (0, 1]: most keys that may move against
 *       the baseline</td><td>no limit</td></tr>
 *   <tr><td>{@code check.maxMovedOverIdeal}</td><td>number &gt;= 1.0: most moved keys as a
 *       multiple of the ideal minimum for the membership change</td><td>no limit</td></tr>
 * </table>
 *
 * <p>A <b>duration</b> is a whole number and a unit with nothing between: {@code 100ms}, {@code
 * 30s}, {@code 10m}, {@code 2h}, {@code 1d}.
 *
 * <h2>Errors</h2>
 *
 * Every problem of a file is reported at once, one a line, as {@code file:line:column: message},
 * with the 1-based position of the offending value (of the key, for an unknown or duplicate key; of
 * the enclosing mapping, for a missing key). Unknown keys are errors. Examples:
 *
 * <pre>{@code
 * chash.yaml:2:14: ring.algorithm must be one of ring, ketama, maglev, rendezvous, jump, jedis; was "ketma"
 * chash.yaml:5:5: unknown key "wieght" in nodes[0]; valid keys: id, type, weight, maximumSize, uri, name, readFrom, replicaLag; did you mean "weight"?
 * chash.yaml:7:13: nodes[1].weight must be a positive integer, was -1
 * chash.yaml:9:10: nodes[2].uri contains a plain-text password; use ${env:NAME}
 * }</pre>
 *
 * <p>YAML anchors, aliases (at most 50, standing for at most 10,000 values in all) and merge keys
 * ({@code <<: *defaults}) are allowed; an alias inside its own anchor and explicit tags other than
 * the core schema's are not. Nesting deeper than 64 levels is refused.
 *
 * <p>All types here are immutable and thread-safe, except the builder.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.config;
