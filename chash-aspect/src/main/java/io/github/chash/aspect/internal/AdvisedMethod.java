package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheConfig;
import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.CacheAnnotation;
import io.github.chash.internal.keys.MethodShape;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An advised method with its parameter names (from wherever they were found) and its chash
 * annotations as the shared {@link AnnotationRules} read them. Immutable.
 */
final class AdvisedMethod {
  final Method method;

  /** The parameters' names, or null when the class file has none. */
  final List<String> parameterNames;

  /** {@code SimpleClass.method(ParamType, ...)}, for messages. */
  final String description;

  private AdvisedMethod(Method method, List<String> parameterNames) {
    this.method = method;
    this.parameterNames = parameterNames;
    this.description = MethodNames.describe(method);
  }

  /** Names by reflection: present when the class was compiled with {@code -parameters}. */
  static AdvisedMethod reflective(Method method) {
    return new AdvisedMethod(method, reflectedNames(method));
  }

  /**
   * Names from a woven join point's signature, which ajc fills from the class file's {@code
   * MethodParameters} or local variable table (javac's debug information). Without either it makes
   * up {@code arg0, arg1, ...}: those count as absent, unless reflection confirms them.
   */
  static AdvisedMethod woven(Method method, String[] joinPointNames) {
    List<String> reflected = reflectedNames(method);
    if (reflected != null
        || joinPointNames == null
        || joinPointNames.length != method.getParameterCount()
        || madeUp(joinPointNames)) {
      return new AdvisedMethod(method, reflected);
    }
    return new AdvisedMethod(method, List.of(joinPointNames));
  }

  private static boolean madeUp(String[] names) {
    for (int i = 0; i < names.length; i++) {
      if (!names[i].equals("arg" + i)) {
        return false;
      }
    }
    return true;
  }

  private static List<String> reflectedNames(Method method) {
    Parameter[] parameters = method.getParameters();
    List<String> names = new ArrayList<>(parameters.length);
    for (Parameter p : parameters) {
      if (!p.isNamePresent()) {
        return null;
      }
      names.add(p.getName());
    }
    return names;
  }

  /** What the shared rules need to know of the method. */
  MethodShape shape() {
    return new MethodShape(
        parameterNames, method.getParameterCount(), method.getReturnType() == void.class);
  }

  /** Parameter {@code i} as messages name it: its name, else {@code #p0}. */
  String parameterName(int i) {
    return parameterNames != null ? parameterNames.get(i) : "#p" + i;
  }

  /** Every parameter as {@link #parameterName} names it. */
  String[] parameterDescriptions() {
    String[] names = new String[method.getParameterCount()];
    Arrays.setAll(names, this::parameterName);
    return names;
  }

  /** Whether the method carries any chash annotation (one or several). */
  static boolean isAnnotated(Method method) {
    for (Annotation a : method.getDeclaredAnnotations()) {
      if (CacheOperations.ANNOTATION_TYPES.contains(a.annotationType())) {
        return true;
      }
    }
    return false;
  }

  /** The method's chash annotations in declaration order, repeated ones unpacked. */
  List<CacheAnnotation> annotations() {
    List<CacheAnnotation> found = new ArrayList<>();
    for (Annotation a : method.getDeclaredAnnotations()) {
      if (a instanceof ShardedCacheable c) {
        found.add(cacheable(c));
      } else if (a instanceof ShardedCacheable.List list) {
        Arrays.stream(list.value()).map(AdvisedMethod::cacheable).forEach(found::add);
      } else if (a instanceof ShardedCachePut p) {
        found.add(put(p));
      } else if (a instanceof ShardedCachePut.List list) {
        Arrays.stream(list.value()).map(AdvisedMethod::put).forEach(found::add);
      } else if (a instanceof ShardedCacheEvict e) {
        found.add(evict(e));
      } else if (a instanceof ShardedCacheEvict.List list) {
        Arrays.stream(list.value()).map(AdvisedMethod::evict).forEach(found::add);
      }
    }
    return found;
  }

  /** The declaring class's {@link ShardedCacheConfig}. */
  AnnotationRules.Defaults defaults() {
    ShardedCacheConfig config = method.getDeclaringClass().getAnnotation(ShardedCacheConfig.class);
    return config == null
        ? AnnotationRules.Defaults.NONE
        : new AnnotationRules.Defaults(config.cache(), config.ttl());
  }

  private static CacheAnnotation cacheable(ShardedCacheable a) {
    return CacheAnnotation.cacheable(
        a.cache(), a.key(), a.condition(), a.unless(), a.ttl(), a.sync(), a.cacheNull());
  }

  private static CacheAnnotation put(ShardedCachePut a) {
    return CacheAnnotation.put(a.cache(), a.key(), a.condition(), a.unless(), a.ttl());
  }

  private static CacheAnnotation evict(ShardedCacheEvict a) {
    return CacheAnnotation.evict(
        a.cache(), a.key(), a.condition(), a.beforeInvocation(), a.allEntries());
  }
}
