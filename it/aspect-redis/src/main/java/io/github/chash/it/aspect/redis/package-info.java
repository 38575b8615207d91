/**
 * The sample service of {@code it-aspect-sample}, woven at build time, with its caches on Redis
 * servers (the tests live in {@code src/test}; ajc needs a source here to run).
 */
package io.github.chash.it.aspect.redis;
