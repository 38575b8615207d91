package io.github.chash.spring.boot;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The starter's {@code chash.*} properties. The ring, nodes, caches and failover policy themselves
 * are in {@code chash.yaml}, which the Maven plugin checks at build time.
 */
@ConfigurationProperties("chash")
public class ChashProperties {
  /**
   * Where chash.yaml is, as a Spring resource location: classpath:chash.yaml (the default),
   * classpath:config/chash-prod.yaml, file:/etc/app/chash.yaml; a location without a prefix is a
   * class path resource. Placeholders and profile-specific properties can choose it.
   */
  private String config = "classpath:chash.yaml";

  /**
   * How often chash.yaml (chash.config, which must then be a file) is read for changes, e.g. 5s;
   * unset, it is not watched. A changed file that is valid moves the running ring to it (nodes,
   * weights, ring settings, new caches) one to two intervals after it stops changing; an invalid
   * one is logged with file:line:column and the running ring stays.
   */
  private Duration watch;

  private final Cache cache = new Cache();

  /**
   * Per-cache settings by cache name, e.g. chash.caches.users.ttl=10m: a property wins over
   * chash.yaml's value for the same cache (and adds a cache chash.yaml lacks); kept when
   * chash.watch applies a change of the file.
   */
  private final Map<String, CacheSettings> caches = new LinkedHashMap<>();

  private final Aspect aspect = new Aspect();

  /** Creates the defaults; Spring Boot binds the properties. */
  public ChashProperties() {}

  /** {@return where chash.yaml is} */
  public String getConfig() {
    return config;
  }

  /**
   * Sets where chash.yaml is.
   *
   * @param config the location of chash.yaml, as a Spring resource location
   */
  public void setConfig(String config) {
    this.config = config;
  }

  /** {@return how often chash.yaml is read for changes, or null when it is not watched} */
  public Duration getWatch() {
    return watch;
  }

  /**
   * Sets how often chash.yaml is read for changes.
   *
   * @param watch the interval, or null not to watch the file
   */
  public void setWatch(Duration watch) {
    this.watch = watch;
  }

  /** {@return the Spring cache abstraction's settings} */
  public Cache getCache() {
    return cache;
  }

  /** {@return the per-cache settings, by cache name} */
  public Map<String, CacheSettings> getCaches() {
    return caches;
  }

  /** {@return the {@code @ShardedCache*} annotations' settings} */
  public Aspect getAspect() {
    return aspect;
  }

  /** {@code chash.cache.*}: Spring's {@code CacheManager} over the ring. */
  public static class Cache {
    /**
     * Whether @Cacheable caches null results (stored as chash's cached-null marker), as Spring's
     * own cache managers do by default.
     */
    private boolean allowNullValues = true;

    /**
     * Whether a cache name that Spring's cache annotations (or spring.cache.cache-names) use but
     * chash.yaml does not configure is created at startup with chash.cache.default-ttl. When false,
     * such a name fails the startup, listing the configured caches.
     */
    private boolean createMissing = false;

    /** Time to live of the caches chash.cache.create-missing creates; none means no expiry. */
    private Duration defaultTtl;

    /** Creates the defaults. */
    public Cache() {}

    /** {@return whether null results are cached} */
    public boolean isAllowNullValues() {
      return allowNullValues;
    }

    /**
     * Sets whether null results are cached.
     *
     * @param allowNullValues whether null results are cached
     */
    public void setAllowNullValues(boolean allowNullValues) {
      this.allowNullValues = allowNullValues;
    }

    /** {@return whether caches missing from chash.yaml are created} */
    public boolean isCreateMissing() {
      return createMissing;
    }

    /**
     * Sets whether caches missing from chash.yaml are created.
     *
     * @param createMissing whether caches missing from chash.yaml are created
     */
    public void setCreateMissing(boolean createMissing) {
      this.createMissing = createMissing;
    }

    /** {@return time to live of created caches, or null for no expiry} */
    public Duration getDefaultTtl() {
      return defaultTtl;
    }

    /**
     * Sets the time to live of created caches.
     *
     * @param defaultTtl the time to live, or null for no expiry
     */
    public void setDefaultTtl(Duration defaultTtl) {
      this.defaultTtl = defaultTtl;
    }
  }

  /** {@code chash.caches.<name>.*}: one cache's settings, over chash.yaml's. */
  public static class CacheSettings {
    /** Time to live of the cache's entries, e.g. 10m; over chash.yaml's ttl for the cache. */
    private Duration ttl;

    /** Creates the defaults (nothing set). */
    public CacheSettings() {}

    /** {@return the time to live, or null to keep chash.yaml's} */
    public Duration getTtl() {
      return ttl;
    }

    /**
     * Sets the time to live.
     *
     * @param ttl the time to live, or null to keep chash.yaml's
     */
    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }
  }

  /** {@code chash.aspect.*}: the {@code @ShardedCache*} annotations. */
  public static class Aspect {
    /**
     * Whether the @ShardedCacheable, @ShardedCachePut and @ShardedCacheEvict methods of beans run
     * through Spring AOP proxies (the advisors of ShardedCacheAspectConfiguration). Set false when
     * the classes are woven with AspectJ instead, so no call is intercepted twice.
     */
    private boolean proxies = true;

    /** Creates the defaults. */
    public Aspect() {}

    /** {@return whether the annotations run through Spring proxies} */
    public boolean isProxies() {
      return proxies;
    }

    /**
     * Sets whether the annotations run through Spring proxies.
     *
     * @param proxies whether the annotations run through Spring proxies
     */
    public void setProxies(boolean proxies) {
      this.proxies = proxies;
    }
  }
}
