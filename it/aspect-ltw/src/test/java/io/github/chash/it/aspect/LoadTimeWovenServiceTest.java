package io.github.chash.it.aspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The proof with the service woven by the AspectJ agent as it loads. */
class LoadTimeWovenServiceTest extends AbstractWovenServiceTest {

  @Override
  protected UserService start(ShardedCacheManager manager) {
    ShardedCacheAspect.setManager(manager);
    return new UserService();
  }

  @Override
  protected void stop() {
    ShardedCacheAspect.setManager(null);
  }

  @Test
  void userService_wasWovenAtLoadTimeFromTheUnwovenJar() {
    assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments())
        .anyMatch(arg -> arg.startsWith("-javaagent:") && arg.contains("aspectjweaver"));
    // Loaded from the sample's jar, which javac built without weaving; the agent added the fields.
    assertThat(UserService.class.getProtectionDomain().getCodeSource().getLocation().getPath())
        .endsWith(".jar");
    assertThat(Arrays.stream(UserService.class.getDeclaredFields()).map(Field::getName))
        .anyMatch(name -> name.startsWith("ajc$"));
  }

  @Test
  void userService_hasNoParameterNamesForReflectionYetItsKeysNameParameters() throws Exception {
    // compiled without -parameters: only the debug information has the names, which the weaver
    // put into the join points; the proof above ran #id, #user.id and #region + ':' + #year
    Method report = UserService.class.getMethod("report", String.class, int.class);
    assertThat(report.getParameters()).noneMatch(Parameter::isNamePresent);
  }
}
