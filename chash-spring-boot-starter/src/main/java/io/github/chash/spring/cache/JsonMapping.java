package io.github.chash.spring.cache;

import java.lang.reflect.Type;

/**
 * Writes cache values as JSON and reads them back as a declared type, for the caches {@link
 * ChashCacheManager} stores as JSON: those whose values' declared type JDK serialization cannot
 * write (a record or class that is not {@link java.io.Serializable}). The Spring Boot starter makes
 * one from the application's own Jackson (its {@code ObjectMapper} on Jackson 2, its {@code
 * JsonMapper} on Jackson 3), with default typing off: the JSON holds no class names, so stored
 * bytes never choose the class they are read as. Implementations are thread-safe.
 */
public interface JsonMapping {

  /**
   * {@return the value as JSON}
   *
   * @param value the value, not null
   * @throws IllegalArgumentException if it cannot be written; the message names its class, never
   *     its content
   */
  byte[] write(Object value);

  /**
   * {@return the value the JSON holds, as {@code type}}
   *
   * @param json bytes {@link #write} wrote
   * @param type the type to read, such as a method's generic return type
   * @throws IllegalArgumentException if it cannot be read as {@code type}; the message names the
   *     type, never the content
   */
  Object read(byte[] json, Type type);

  /** {@return what writes the JSON, for messages, e.g. {@code jackson 2.19.2}} */
  String name();
}
