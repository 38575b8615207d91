package io.github.chash.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Checks of {@code chash.membership.*} values, each failing with Boot's exception for a bad
 * property value: its failure analysis names the property, the value and where it was set.
 */
final class PropertyValues {
  private PropertyValues() {}

  /** {@return {@code value}, which must be set and not blank} */
  static String required(String name, String value, String example) {
    if (value == null || value.isBlank()) {
      throw new InvalidConfigurationPropertyValueException(
          name, value, "must be set, e.g. " + name + "=" + example);
    }
    return value;
  }

  /** {@return {@code value}, which must be a positive duration} */
  static Duration positive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new InvalidConfigurationPropertyValueException(
          name, value, "must be a positive duration, e.g. " + name + "=1s");
    }
    return value;
  }
}
