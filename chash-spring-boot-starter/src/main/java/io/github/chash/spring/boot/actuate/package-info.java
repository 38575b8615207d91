/**
 * Actuator support of chash on Spring Boot 3.5 and 4: the {@code chash} endpoint and health
 * contributor ({@link io.github.chash.spring.boot.actuate.ChashActuatorAutoConfiguration}).
 */
package io.github.chash.spring.boot.actuate;
