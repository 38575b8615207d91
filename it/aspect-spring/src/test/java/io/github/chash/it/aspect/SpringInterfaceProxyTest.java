package io.github.chash.it.aspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.aspect.spring.ShardedCacheAspectConfiguration;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * A bean behind an interface gets a JDK proxy, which reports the interface's method; the annotation
 * sits on the implementation's method, and each implementation keeps its own cache.
 */
class SpringInterfaceProxyTest {

  /** A service interface without annotations. */
  public interface Greeter {
    /** Greets. */
    String greet(String name);
  }

  /** Caches in "users". */
  public static class UserGreeter implements Greeter {
    final AtomicInteger runs = new AtomicInteger();

    @Override
    @ShardedCacheable(cache = "users", key = "#p0")
    public String greet(String name) {
      runs.incrementAndGet();
      return "hello " + name;
    }
  }

  /** Caches in "reports", with a key of its own. */
  public static class ReportGreeter implements Greeter {
    final AtomicInteger runs = new AtomicInteger();

    @Override
    @ShardedCacheable(cache = "reports", key = "'r:' + #p0")
    public String greet(String name) {
      runs.incrementAndGet();
      return "report for " + name;
    }
  }

  @Test
  void greet_interfaceProxiesUseTheImplementationsAnnotations() {
    try (ShardedCacheManager manager =
            ShardedCaches.builder()
                .node(CacheNodes.local("a", 1000), 1)
                .cache("users", null)
                .cache("reports", null)
                .build();
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
      UserGreeter users = new UserGreeter();
      ReportGreeter reports = new ReportGreeter();
      context.register(ShardedCacheAspectConfiguration.class);
      context.registerBean(
          ShardedCacheManager.class, () -> manager, bd -> bd.setDestroyMethodName(""));
      context.registerBean("users", Greeter.class, () -> users);
      context.registerBean("reports", Greeter.class, () -> reports);
      context.refresh();
      Greeter userProxy = context.getBean("users", Greeter.class);
      Greeter reportProxy = context.getBean("reports", Greeter.class);
      assertThat(Proxy.isProxyClass(userProxy.getClass())).isTrue();

      for (int i = 0; i < 3; i++) {
        assertThat(userProxy.greet("ann")).isEqualTo("hello ann");
        assertThat(reportProxy.greet("ann")).isEqualTo("report for ann");
      }
      assertThat(users.runs).hasValue(1);
      assertThat(reports.runs).hasValue(1);
      assertThat(manager.cacheStats().get("users").hitCount()).isEqualTo(2);
      assertThat(manager.cacheStats().get("reports").hitCount()).isEqualTo(2);
    }
  }
}
