package io.github.chash.spring.boot;

import io.github.chash.spring.cache.JsonMapping;
import java.lang.reflect.Type;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ListableBeanFactory;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON through Jackson 3 (Spring Boot 4): the application's {@link JsonMapper} (its modules and
 * settings) when it has exactly one, else one with the modules on the class path; rebuilt with
 * default typing off, so the JSON holds no class names. Loaded only when Jackson 3 is there.
 */
final class Jackson3Json implements JsonMapping {
  private final JsonMapper mapper;
  private final String name;
  private final ConcurrentHashMap<Type, JavaType> types = new ConcurrentHashMap<>();

  private Jackson3Json(JsonMapper mapper) {
    this.mapper = mapper.rebuild().deactivateDefaultTyping().build();
    this.name = "jackson " + tools.jackson.databind.cfg.PackageVersion.VERSION;
  }

  /** {@return the mapping over the context's one {@link JsonMapper}, or null if it has none} */
  static JsonMapping ofBean(ListableBeanFactory beans) {
    JsonMapper mapper = beans.getBeanProvider(JsonMapper.class).getIfUnique();
    return mapper == null ? null : new Jackson3Json(mapper);
  }

  /** {@return the mapping over a mapper with the modules on the class path} */
  static JsonMapping ofClassPath() {
    return new Jackson3Json(JsonMapper.builder().findAndAddModules().build());
  }

  @Override
  public byte[] write(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (RuntimeException e) { // JacksonException, and what a getter throws
      throw new IllegalArgumentException(firstLine(e), e);
    }
  }

  @Override
  public Object read(byte[] json, Type type) {
    JavaType javaType = types.computeIfAbsent(type, mapper::constructType);
    try {
      return mapper.readValue(json, javaType);
    } catch (RuntimeException | StackOverflowError e) {
      // stored bytes must never break the caller
      throw new IllegalArgumentException(firstLine(e), e);
    }
  }

  @Override
  public String name() {
    return name;
  }

  /** Jackson's message without the input it quotes (no value content in logs). */
  static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
