/**
 * Spring wiring of the aspect: the only package of chash-aspect that needs Spring (an optional
 * dependency), so applications without Spring never load it.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.aspect.spring;
