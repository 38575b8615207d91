/**
 * Internals of the aspect: key expression compiler, per-method invocation plans and manager lookup.
 * Not an API: anything here may change without notice.
 */
package io.github.chash.aspect.internal;
