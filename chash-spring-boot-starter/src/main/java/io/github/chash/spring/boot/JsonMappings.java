package io.github.chash.spring.boot;

import io.github.chash.spring.cache.JsonMapping;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Finds the application's Jackson, for the caches stored as JSON: its mapper bean (Jackson 3's
 * {@code JsonMapper} on Boot 4, Jackson 2's {@code ObjectMapper} on Boot 3.5), else a mapper of
 * whichever Jackson is on the class path, Jackson 2 first; none without Jackson.
 */
final class JsonMappings {
  private static final String JACKSON_2 = "com.fasterxml.jackson.databind.ObjectMapper";
  private static final String JACKSON_3 = "tools.jackson.databind.json.JsonMapper";

  private JsonMappings() {}

  /** {@return the application's JSON mapping, or null when it has no Jackson} */
  static JsonMapping find(ConfigurableListableBeanFactory beans) {
    ClassLoader loader = beans.getBeanClassLoader();
    boolean jackson3 = ClassUtils.isPresent(JACKSON_3, loader);
    boolean jackson2 = ClassUtils.isPresent(JACKSON_2, loader);
    JsonMapping mapping = null;
    if (jackson3) {
      mapping = Jackson3Json.ofBean(beans);
    }
    if (mapping == null && jackson2) {
      mapping = Jackson2Json.ofBean(beans);
    }
    if (mapping == null && jackson2) {
      mapping = Jackson2Json.ofClassPath();
    }
    if (mapping == null && jackson3) {
      mapping = Jackson3Json.ofClassPath();
    }
    return mapping;
  }
}
