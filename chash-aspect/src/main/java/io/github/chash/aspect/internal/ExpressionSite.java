package io.github.chash.aspect.internal;

/**
 * Where an expression sits, for messages: {@code OrderService.find(Customer): @ShardedCacheable key
 * expression "#customer.id"}. Immutable.
 */
final class ExpressionSite {
  private final String where;

  /**
   * @param where the method, annotation, attribute and expression, as above
   */
  ExpressionSite(String where) {
    this.where = where;
  }

  /** {@code where at position N: reason}, N 1-based. */
  KeyExpressionException error(int position, String reason) {
    return new KeyExpressionException(where + " at position " + (position + 1) + ": " + reason);
  }
}
