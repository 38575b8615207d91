/**
 * A membership source on Kubernetes: {@link io.github.chash.kubernetes.KubernetesSource} follows
 * the ready endpoints of one Service's EndpointSlices through a fabric8 informer, each made a node
 * by a {@link io.github.chash.kubernetes.NodeTemplate}.
 */
package io.github.chash.kubernetes;
