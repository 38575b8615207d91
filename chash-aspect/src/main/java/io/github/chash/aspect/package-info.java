/**
 * Annotations that route each call's key through a chash ring, and the AspectJ aspect that does it.
 */
package io.github.chash.aspect;
