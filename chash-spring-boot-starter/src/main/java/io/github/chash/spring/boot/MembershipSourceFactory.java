package io.github.chash.spring.boot;

import io.github.chash.membership.MembershipSource;

/**
 * Builds the membership source {@code chash.membership.source} names, from its module's classes:
 * one bean per module on the class path, so that the starter never loads a client library the
 * application does not have.
 */
interface MembershipSourceFactory {
  /** {@return which {@code chash.membership.source} value this factory serves} */
  MembershipProperties.Source kind();

  /**
   * {@return a new source, not started}
   *
   * @throws
   *     org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
   *     naming the property that is missing or wrong
   */
  MembershipSource create();
}
