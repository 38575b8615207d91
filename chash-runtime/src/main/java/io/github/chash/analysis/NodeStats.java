package io.github.chash.analysis;

/**
 * One node's line of a {@link DistributionReport}. Shares are fractions of all keys (0..1); a share
 * that was not measured (no sample keys) is {@link Double#NaN}.
 *
 * @param id node id
 * @param weight node weight
 * @param fairShare weight / total weight
 * @param exactShare share of the hash space the node owns ({@code Ring.ownership()})
 * @param sampledShare share of the sample keys the node got
 * @param sampledKeys number of sample keys the node got
 * @param exactSkew exactShare / fairShare
 * @param sampledSkew sampledShare / fairShare
 * @param skew the larger of the two skews
 * @param sampledZ how many standard deviations the sampled count lies above {@code limit *
 *     fairShare} (the one-sided binomial z statistic; NaN without samples)
 * @param movedIfRemoved fraction of all keys whose node changes when this node is removed
 * @param movedIfRemovedEstimate how {@code movedIfRemoved} was obtained
 */
public record NodeStats(
    String id,
    int weight,
    double fairShare,
    double exactShare,
    double sampledShare,
    long sampledKeys,
    double exactSkew,
    double sampledSkew,
    double skew,
    double sampledZ,
    double movedIfRemoved,
    Estimate movedIfRemovedEstimate) {}
