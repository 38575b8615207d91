package io.github.chash.it.aspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.aspect.spring.ShardedCacheAspectConfiguration;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/** The proof with the service as a Spring bean, advised by ShardedCacheAspectConfiguration. */
class SpringAopServiceTest extends AbstractWovenServiceTest {
  private AnnotationConfigApplicationContext context;
  private UserService service;

  @Override
  protected UserService start(ShardedCacheManager manager) {
    context = new AnnotationConfigApplicationContext();
    context.register(ShardedCacheAspectConfiguration.class);
    // The manager is a bean; the aspect finds it there (nothing set programmatically).
    context.registerBean(
        ShardedCacheManager.class, () -> manager, bd -> bd.setDestroyMethodName(""));
    context.registerBean(UserService.class);
    context.refresh();
    service = context.getBean(UserService.class);
    return service;
  }

  @Override
  protected void stop() {
    context.close();
  }

  @Test
  void advisors_needNoAspectJWeaverOnTheClassPath() {
    assertThatThrownBy(() -> Class.forName("org.aspectj.weaver.tools.PointcutParser"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void userService_isAnUnwovenClassBehindASpringProxy() {
    assertThat(AopUtils.isAopProxy(service)).isTrue();
    assertThat(Arrays.stream(UserService.class.getDeclaredFields()).map(Field::getName))
        .noneMatch(name -> name.startsWith("ajc$"));
  }

  @Test
  void userService_isCompiledWithParameterNamesAsProxiesNeed() throws Exception {
    Method report = UserService.class.getMethod("report", String.class, int.class);
    assertThat(report.getParameters()).allMatch(Parameter::isNamePresent);
  }
}
