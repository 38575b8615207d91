package io.github.chash.analysis;

/**
 * A stretch of the hash space and its owner, as fractions of the whole circle.
 *
 * @param start where it begins, in [0, 1)
 * @param end where it ends, in (start, 1]
 * @param owner the id of the node that owns it
 */
public record Arc(double start, double end, String owner) {}
