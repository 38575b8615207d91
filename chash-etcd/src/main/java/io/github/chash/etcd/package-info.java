/**
 * A membership source on etcd: {@link io.github.chash.etcd.EtcdSource} watches a key (or a prefix)
 * through jetcd.
 */
package io.github.chash.etcd;
