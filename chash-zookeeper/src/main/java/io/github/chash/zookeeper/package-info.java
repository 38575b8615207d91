/**
 * A membership source on ZooKeeper: {@link io.github.chash.zookeeper.ZooKeeperSource} watches one
 * znode through Curator's {@code CuratorCache}.
 */
package io.github.chash.zookeeper;
