package io.github.chash.spring.boot;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.spring.cache.ChashCacheManager;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cache.interceptor.CacheOperation;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.cache.interceptor.CachePutOperation;
import org.springframework.cache.interceptor.CacheableOperation;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The cache names an application's Spring caching uses, and where: the names its beans'
 * {@code @Cacheable}, {@code @CachePut}, {@code @CacheEvict}, {@code @Caching} and
 * {@code @CacheConfig} name (read by the context's {@link CacheOperationSource}, the one
 * {@code @EnableCaching} registers), and {@code spring.cache.cache-names}. Found before the first
 * call, so that an unknown name fails the startup, or is created, instead of failing a request.
 *
 * <p>Operations that name their own cache resolver, or a cache manager other than chash's, are not
 * chash's and are left out. Bean classes are the types of their definitions: annotations only on an
 * implementation behind a factory method declared with an interface type are not seen (Spring then
 * fails the call with "Cannot find cache named ...").
 */
final class CacheNamesInUse {
  private static final String CACHE_NAMES_PROPERTY = "spring.cache.cache-names";

  /** Name to the places that use it, in the order found. */
  private final Map<String, Set<String>> places;

  /**
   * Name to the value types its {@code @Cacheable} and {@code @CachePut} methods declare (their
   * generic return types, unwrapped: see {@link ValueTypes#cached}), each with its methods.
   */
  private final Map<String, Map<Type, Set<String>>> valueTypes;

  private CacheNamesInUse(
      Map<String, Set<String>> places, Map<String, Map<Type, Set<String>>> valueTypes) {
    this.places = places;
    this.valueTypes = valueTypes;
  }

  /** Finds the names of the context's Spring caching operations served by chash. */
  static CacheNamesInUse find(ConfigurableListableBeanFactory beans, Environment environment) {
    Map<String, Set<String>> places = new LinkedHashMap<>();
    Map<String, Map<Type, Set<String>>> valueTypes = new LinkedHashMap<>();
    Binder.get(environment)
        .bind(CACHE_NAMES_PROPERTY, Bindable.listOf(String.class))
        .orElse(List.of())
        .forEach(name -> add(places, name, CACHE_NAMES_PROPERTY));
    Set<String> chashManagers =
        Set.of(beans.getBeanNamesForType(ChashCacheManager.class, true, false));
    beans
        .getBeanProvider(CacheOperationSource.class)
        .orderedStream()
        .findFirst()
        .ifPresent(source -> scanBeans(beans, source, chashManagers, places, valueTypes));
    return new CacheNamesInUse(places, valueTypes);
  }

  private static void scanBeans(
      ConfigurableListableBeanFactory beans,
      CacheOperationSource source,
      Set<String> chashManagers,
      Map<String, Set<String>> places,
      Map<String, Map<Type, Set<String>>> valueTypes) {
    for (String bean : beans.getBeanDefinitionNames()) {
      Class<?> type = applicationType(beans, bean);
      if (type == null) {
        continue;
      }
      for (Method method :
          ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
        Collection<CacheOperation> operations = source.getCacheOperations(method, type);
        if (operations == null) {
          continue;
        }
        for (CacheOperation operation : operations) {
          if (servedByChash(operation, chashManagers)) {
            String where = type.getSimpleName() + "." + method.getName();
            operation.getCacheNames().forEach(name -> add(places, name, where));
            if (operation instanceof CacheableOperation || operation instanceof CachePutOperation) {
              Type value = ValueTypes.cached(method.getGenericReturnType());
              if (value != null) {
                operation
                    .getCacheNames()
                    .forEach(
                        name ->
                            valueTypes
                                .computeIfAbsent(name, n -> new LinkedHashMap<>())
                                .computeIfAbsent(value, t -> new LinkedHashSet<>())
                                .add(where));
              }
            }
          }
        }
      }
    }
  }

  /** The user class of an application bean, or null for infrastructure and unknown types. */
  private static Class<?> applicationType(ConfigurableListableBeanFactory beans, String bean) {
    try {
      BeanDefinition definition = beans.getMergedBeanDefinition(bean);
      if (definition.isAbstract() || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
        return null;
      }
      Class<?> type = beans.getType(bean, false);
      return type == null ? null : ClassUtils.getUserClass(type);
    } catch (BeansException e) {
      return null; // a definition whose type cannot be known without creating it
    }
  }

  private static boolean servedByChash(CacheOperation operation, Set<String> chashManagers) {
    if (!operation.getCacheResolver().isEmpty()) {
      return false;
    }
    return operation.getCacheManager().isEmpty()
        || chashManagers.contains(operation.getCacheManager());
  }

  private static void add(Map<String, Set<String>> places, String name, String where) {
    places.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(where);
  }

  /**
   * {@return cache name to the type its values are stored as JSON for: the caches whose methods
   * declare one value type that JDK serialization cannot write, and every cache with one declared
   * value type whose values go through a codec that writes no class name ({@link ClasslessCodecs}),
   * which would read them back as a {@code Map}} A cache whose methods declare several value types,
   * when one of them needs JSON or its codec writes no class name, fails: JSON is read as one
   * declared type.
   *
   * @param json what writes the JSON, or null when the application has no Jackson
   * @param classless cache name to where its values meet a codec that writes no class name, or to
   *     null (see {@link ClasslessCodecs#of})
   * @throws IllegalStateException naming the cache, the type and the methods: when there is no JSON
   *     mapping for such a type, or such a cache has several value types
   */
  Map<String, Type> jsonTypes(
      io.github.chash.spring.cache.JsonMapping json, Function<String, String> classless) {
    Map<String, Type> out = new LinkedHashMap<>();
    List<String> problems = new java.util.ArrayList<>();
    valueTypes.forEach(
        (name, types) -> {
          String codec = classless.apply(name);
          List<Type> notJdk =
              types.keySet().stream().filter(t -> !ValueTypes.jdkWritable(t)).toList();
          if (notJdk.isEmpty() && codec == null) {
            return;
          }
          String why =
              codec == null
                  ? notJdk.get(0).getTypeName() + " is not java.io.Serializable"
                  : "its values go through "
                      + codec
                      + ", which writes no class name (a value read as Object is a Map)";
          if (types.size() > 1) {
            problems.add(
                "cache \""
                    + name
                    + "\" holds values of several declared types, "
                    + describe(types)
                    + ", and "
                    + why
                    + ", so its values are stored as json, which is read as one declared type:"
                    + " give each type its own cache"
                    + (codec == null ? "" : ", or give the cache the jdk codec"));
          } else if (json == null) {
            problems.add(
                "cache \""
                    + name
                    + "\" holds "
                    + describe(types)
                    + (codec == null
                        ? ", which is not java.io.Serializable, and no Jackson is on the class path"
                            + " to store it as json: add spring-boot-starter-json"
                            + " (spring-boot-starter-web has it), or make the type implement"
                            + " java.io.Serializable"
                        : ", and "
                            + why
                            + ", and no Jackson is on the class path to store it as json: add"
                            + " spring-boot-starter-json (spring-boot-starter-web has it)"));
          } else {
            out.put(name, types.keySet().iterator().next());
          }
        });
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          "chash cannot store the values of "
              + problems.size()
              + (problems.size() == 1 ? " cache" : " caches")
              + ":\n  "
              + String.join("\n  ", problems));
    }
    return out;
  }

  /**
   * {@return cache name to the value type its methods declare, for the caches whose
   * {@code @Cacheable} and {@code @CachePut} methods declare exactly one}
   */
  Map<String, Type> declaredTypes() {
    Map<String, Type> out = new LinkedHashMap<>();
    valueTypes.forEach(
        (name, types) -> {
          if (types.size() == 1) {
            out.put(name, types.keySet().iterator().next());
          }
        });
    return out;
  }

  private static String describe(Map<Type, Set<String>> types) {
    return types.entrySet().stream()
        .map(
            e ->
                e.getKey().getTypeName() + " (returned by " + String.join(", ", e.getValue()) + ")")
        .collect(Collectors.joining(" and "));
  }

  /** The names found, in the order found. */
  Set<String> names() {
    return places.keySet();
  }

  /**
   * Returns the configuration with a cache added for every name it lacks, each with {@code ttl},
   * checked as {@code chash.yaml}'s caches are.
   *
   * @throws IllegalStateException naming the cache and where it is used if a name is not a valid
   *     chash cache name (a {@code :} in it, for example)
   */
  ChashConfig addMissingTo(ChashConfig config, Duration ttl) {
    Map<String, CacheConfig> caches = new LinkedHashMap<>(config.caches());
    for (var entry : places.entrySet()) {
      if (!caches.containsKey(entry.getKey())) {
        try {
          caches.put(entry.getKey(), new CacheConfig(entry.getKey(), ttl));
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException(
              "chash.cache.create-missing cannot create the cache used by "
                  + String.join(", ", entry.getValue())
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
    }
    return ConfigAdjustment.withCaches(config, caches);
  }

  /**
   * Checks that the manager has every cache found.
   *
   * @throws IllegalStateException listing each missing cache, where it is used, and the manager's
   *     caches
   */
  void requireConfiguredIn(ShardedCacheManager manager) {
    Set<String> configured = manager.cacheNames();
    String missing =
        places.entrySet().stream()
            .filter(e -> !configured.contains(e.getKey()))
            .map(e -> "  cache \"" + e.getKey() + "\", used by " + String.join(", ", e.getValue()))
            .collect(Collectors.joining("\n"));
    if (missing.isEmpty()) {
      return;
    }
    throw new IllegalStateException(
        "spring caching uses caches that chash does not have:\n"
            + missing
            + "\nthe configured caches are "
            + Arrays.toString(configured.toArray())
            + "; add the missing ones under caches: in chash.yaml, or (when the starter builds the"
            + " ShardedCacheManager) set chash.cache.create-missing=true to create them with"
            + " chash.cache.default-ttl");
  }
}
