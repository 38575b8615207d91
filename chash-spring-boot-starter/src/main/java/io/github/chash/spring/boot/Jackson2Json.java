package io.github.chash.spring.boot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.PackageVersion;
import io.github.chash.spring.cache.JsonMapping;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * JSON through Jackson 2 (Spring Boot 3.5): the application's {@link ObjectMapper} (its modules and
 * settings) when it has exactly one, else one with the modules on the class path; a copy with
 * default typing off, so the JSON holds no class names (as the runtime's {@code redis.codec:
 * jackson}). Loaded only when Jackson 2 is there.
 */
final class Jackson2Json implements JsonMapping {
  private final ObjectMapper mapper;
  private final String name;
  private final ConcurrentHashMap<Type, JavaType> types = new ConcurrentHashMap<>();

  private Jackson2Json(ObjectMapper mapper) {
    this.mapper = mapper.copy().deactivateDefaultTyping();
    this.name = "jackson " + PackageVersion.VERSION;
  }

  /** {@return the mapping over the context's one {@link ObjectMapper}, or null if it has none} */
  static JsonMapping ofBean(ListableBeanFactory beans) {
    ObjectMapper mapper = beans.getBeanProvider(ObjectMapper.class).getIfUnique();
    return mapper == null ? null : new Jackson2Json(mapper);
  }

  /** {@return the mapping over a mapper with the modules on the class path} */
  static JsonMapping ofClassPath() {
    return new Jackson2Json(new ObjectMapper().findAndRegisterModules());
  }

  @Override
  public byte[] write(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JsonProcessingException | RuntimeException e) {
      throw new IllegalArgumentException(Jackson3Json.firstLine(e), e);
    }
  }

  @Override
  public Object read(byte[] json, Type type) {
    JavaType javaType = types.computeIfAbsent(type, mapper::constructType);
    try {
      return mapper.readValue(json, javaType);
    } catch (IOException | RuntimeException | StackOverflowError e) {
      // stored bytes must never break the caller
      throw new IllegalArgumentException(Jackson3Json.firstLine(e), e);
    }
  }

  @Override
  public String name() {
    return name;
  }
}
