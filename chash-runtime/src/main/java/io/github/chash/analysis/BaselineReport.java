package io.github.chash.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How many keys move between a baseline configuration and the current one, against the least any
 * placement could move for that membership change, and why. Immutable; built by {@link
 * BaselineComparison}.
 *
 * <p><b>Ideal.</b> The ideal is the total variation distance between the two fair-share vectors
 * (weight / total weight) by node, a renamed node counting as the same node: one node joining ten
 * gives 1/11, a node of weight {@code w} leaving a total of {@code W} gives {@code w / W}, a pure
 * rename, a hash or algorithm change give 0.
 *
 * <p><b>Moved over ideal when the ideal is 0.</b> Then the membership did not change and no key
 * needs to move: {@link #movedOverIdeal()} is 1 when none moves and positive infinity when any
 * does, so any {@code maxMovedOverIdeal} limit fails a change that moves keys for no membership
 * reason (written as {@code null} in JSON).
 *
 * @param baseline the baseline's name as the user gave it (file name or coordinates)
 * @param movedFraction fraction of the key space whose node changes
 * @param idealMoved the ideal minimum, see above
 * @param randomMoved what re-placing every key at random by fair share would move: 1 - sum over
 *     nodes of fair share before x fair share after; a hash change moves about this much
 * @param estimate {@link Estimate#EXACT} (merged position maps) or {@link Estimate#SAMPLED}
 * @param sampleKeys keys sampled (0 when exact)
 * @param method how the fraction was obtained, in words, with the reason when sampled
 * @param causes what changed, in the order algorithm, hash, points, renames, re-weights, additions,
 *     removals, order
 * @param nodes per node, current nodes first in ring order, then removed ones
 * @param flows moved keys by (from, to), largest first
 */
public record BaselineReport(
    String baseline,
    double movedFraction,
    double idealMoved,
    double randomMoved,
    Estimate estimate,
    int sampleKeys,
    String method,
    List<ChangeCause> causes,
    List<NodeMovement> nodes,
    List<Flow> flows) {

  /** Moved fractions below this count as no movement (rounding of exact arc sums). */
  static final double EPSILON = 1e-12;

  /**
   * Compact constructor: defensive copies.
   *
   * @param baseline the baseline's name as the user gave it (file name or coordinates)
   * @param movedFraction fraction of the key space whose node changes
   * @param idealMoved the ideal minimum, see above
   * @param randomMoved what re-placing every key at random by fair share would move: 1 - sum over
   *     nodes of fair share before x fair share after; a hash change moves about this much
   * @param estimate {@link Estimate#EXACT} (merged position maps) or {@link Estimate#SAMPLED}
   * @param sampleKeys keys sampled (0 when exact)
   * @param method how the fraction was obtained, in words, with the reason when sampled
   * @param causes what changed, in the order algorithm, hash, points, renames, re-weights,
   *     additions, removals, order
   * @param nodes per node, current nodes first in ring order, then removed ones
   * @param flows moved keys by (from, to), largest first
   */
  public BaselineReport {
    causes = List.copyOf(causes);
    nodes = List.copyOf(nodes);
    flows = List.copyOf(flows);
  }

  /** {@return moved keys as a multiple of the ideal; see the class comment for an ideal of 0} */
  public double movedOverIdeal() {
    if (idealMoved > EPSILON) {
      return movedFraction / idealMoved;
    }
    return movedFraction > EPSILON ? Double.POSITIVE_INFINITY : 1.0;
  }

  /**
   * {@return whether the movement is about that of re-placing every key at random (95% of it or
   * more)}
   */
  public boolean asBadAsRandom() {
    return randomMoved > EPSILON && movedFraction >= 0.95 * randomMoved;
  }

  /**
   * {@return the causes joined for a message: {@code cause: X}, {@code causes: X; Y}, or {@code no
   * change}}
   */
  public String causeText() {
    if (causes.isEmpty()) {
      return movedFraction > EPSILON ? "cause: none named" : "no change";
    }
    List<String> messages = causes.stream().map(ChangeCause::message).toList();
    return (causes.size() == 1 ? "cause: " : "causes: ") + String.join("; ", messages);
  }

  /**
   * {@return the one-line summary the report prints, e.g. {@code key movement against baseline
   * chash-baseline.yaml: 9.09% of keys move (exact), ideal 9.09%, 1.00x the ideal; cause: node
   * added: cache-10}}
   */
  public String summary() {
    return summary(null);
  }

  /**
   * {@return the summary naming what was compared: {@code key movement of orders/chash.yaml against
   * baseline ...}; without a subject as {@link #summary()}}
   *
   * @param subject the current configuration's name, or null
   */
  public String summary(String subject) {
    double ratio = movedOverIdeal();
    return String.format(
        Locale.ROOT,
        "key movement %sagainst baseline %s: %s of keys move (%s), ideal %s, %s the ideal%s; %s",
        subject == null ? "" : "of " + subject + " ",
        baseline,
        percent(movedFraction, 2),
        estimate == Estimate.EXACT
            ? "exact"
            : String.format(Locale.ROOT, "sampled over %,d keys", sampleKeys),
        percent(idealMoved, 2),
        Double.isInfinite(ratio)
            ? "infinitely more than"
            : String.format(Locale.ROOT, "%.2fx", ratio),
        asBadAsRandom() ? ", as many as a random re-placement" : "",
        causeText());
  }

  /**
   * Checks the limits (null: none) and returns the failure message, or null when both hold. The
   * message names the baseline, the moved and ideal fractions, each broken limit and the causes,
   * e.g. {@code key movement against baseline chash-baseline.yaml: 90.0% of keys move, as many as a
   * random re-placement (ideal 0.0%, limit 20.0%); cause: hash changed from xxh3 to murmur3}.
   *
   * @param maxMoved largest allowed moved fraction, or null for no limit
   * @param maxMovedOverIdeal largest allowed ratio of moved keys to the ideal, or null for no limit
   * @return the failure message, or null when both limits hold
   * @throws IllegalArgumentException if a limit is out of range: {@code maxMoved} in (0, 1], {@code
   *     maxMovedOverIdeal} at least 1
   */
  public String violation(Double maxMoved, Double maxMovedOverIdeal) {
    if (maxMoved != null && !(maxMoved > 0 && maxMoved <= 1)) {
      throw new IllegalArgumentException("maxMoved must be a fraction in (0, 1]; was " + maxMoved);
    }
    if (maxMovedOverIdeal != null && !(maxMovedOverIdeal >= 1)) {
      throw new IllegalArgumentException(
          "maxMovedOverIdeal must be at least 1.0; was " + maxMovedOverIdeal);
    }
    List<String> broken = new ArrayList<>();
    if (maxMoved != null && movedFraction > maxMoved) {
      broken.add("limit " + percent(maxMoved, 1));
    }
    double ratio = movedOverIdeal();
    if (maxMovedOverIdeal != null && ratio > maxMovedOverIdeal) {
      broken.add(
          Double.isInfinite(ratio)
              ? String.format(
                  Locale.ROOT, "no key needs to move, limit %.2fx the ideal", maxMovedOverIdeal)
              : String.format(
                  Locale.ROOT, "%.2fx the ideal, limit %.2fx", ratio, maxMovedOverIdeal));
    }
    if (broken.isEmpty()) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "key movement against baseline %s: %s of keys move%s (ideal %s, %s); %s",
        baseline,
        percent(movedFraction, 1),
        asBadAsRandom() ? ", as many as a random re-placement" : "",
        percent(idealMoved, 1),
        String.join("; ", broken),
        causeText());
  }

  private static String percent(double fraction, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f%%", fraction * 100);
  }
}
