/**
 * Actuator support of chash on Spring Boot 3.5 and 4: the {@code chash} endpoint and health
 * contributor ({@link io.github.chash.spring.boot.actuate.ChashActuatorAutoConfiguration}).
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.spring.boot.actuate;
