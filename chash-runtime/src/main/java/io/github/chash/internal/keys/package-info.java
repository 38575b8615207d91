/**
 * Internal: the expression language and annotation rules shared by the aspect (which compiles
 * expressions at run time) and the Maven plugin (which checks them at build time), so both accept
 * the same text and report the same errors at the same positions: {@link
 * io.github.chash.internal.keys.ExpressionParser} reads key expressions and conditions, {@link
 * io.github.chash.internal.keys.References} decides what a {@code #name} means, {@link
 * io.github.chash.internal.keys.AnnotationRules} checks a method's annotations; and the bytes
 * remote nodes write a routing key as ({@link io.github.chash.internal.keys.KeyBytes}, the encoding
 * of {@link io.github.chash.ring.RoutingKey}). Public only so other packages and modules can reach
 * them; not part of the API, they may change in any release.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.internal.keys;
