package io.github.chash.analysis;

/**
 * Keys that change node in a {@link ChangeReport}.
 *
 * @param from the node that owned them before
 * @param to the node that owns them after
 * @param fraction their fraction of all keys
 */
public record Flow(String from, String to, double fraction) {}
