package io.github.chash.benchmarks.aspect;

/**
 * The cached value.
 *
 * @param id the user id
 * @param name the name
 */
public record User(String id, String name) {}
