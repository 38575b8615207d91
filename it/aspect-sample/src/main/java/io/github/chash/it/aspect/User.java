package io.github.chash.it.aspect;

import java.io.Serializable;

/**
 * A user of the sample service.
 *
 * @param id the user's id, the cache key
 * @param name the user's name
 */
public record User(long id, String name) implements Serializable {}
