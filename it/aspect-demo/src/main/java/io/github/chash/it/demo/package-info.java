/** The quick-start demo: an annotated service over four local shards. */
package io.github.chash.it.demo;
