package io.github.chash.benchmarks.aspect;

/**
 * A composite key as services have them: its canonical form is {@code (region,id)}.
 *
 * @param region the region
 * @param id the account number
 */
public record Account(String region, long id) {}
