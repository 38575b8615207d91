package io.github.chash.analysis;

/**
 * One node's keys against a baseline: its share before and after, and the keys it gains and loses.
 * A renamed node is one node (its {@code previousId} set): the keys that stay on it do not count as
 * moved. Shares are fractions of all keys. Immutable.
 *
 * @param id the node's id now (for a removed node, its id in the baseline)
 * @param previousId its id in the baseline when it was renamed, else null
 * @param before its share in the baseline (0 when added)
 * @param after its share now (0 when removed)
 * @param gained keys that move to it
 * @param lost keys that move away from it
 */
public record NodeMovement(
    String id, String previousId, double before, double after, double gained, double lost) {}
