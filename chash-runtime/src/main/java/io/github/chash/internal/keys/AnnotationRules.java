package io.github.chash.internal.keys;

import io.github.chash.config.CacheConfig;
import io.github.chash.internal.keys.CacheAnnotation.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Internal: the rules every method's chash annotations must follow, checked by the aspect at a
 * method's first call and by the Maven plugin at build time, with the same messages. What only the
 * aspect can check (property paths, types, the cache existing on the running manager) it checks
 * itself; what only the plugin can check (the cache in {@code chash.yaml}) the plugin does.
 *
 * <p>Messages start with the annotation ({@code @ShardedCacheable key expression "#idd" at position
 * 1: no parameter named idd; parameters are: id}); the caller puts the method in front. Stateless
 * and thread-safe.
 */
public final class AnnotationRules {
  private AnnotationRules() {}

  /**
   * The class-level defaults ({@code @ShardedCacheConfig}).
   *
   * @param cache the default cache name, empty for none
   * @param ttl the default time to live of written entries, empty for the cache's
   */
  public record Defaults(String cache, String ttl) {
    /** No {@code @ShardedCacheConfig}. */
    public static final Defaults NONE = new Defaults("", "");
  }

  /** The three expression attributes, as messages name them. */
  public enum Attribute {
    /** {@code key} */
    KEY("key expression"),
    /** {@code condition} */
    CONDITION("condition"),
    /** {@code unless} */
    UNLESS("unless");

    private final String label;

    Attribute(String label) {
      this.label = label;
    }

    /** {@return how messages name the attribute: {@code key expression}, {@code condition}} */
    public String label() {
      return label;
    }
  }

  /**
   * One annotation that passed the rules, with its defaults applied and expressions parsed.
   *
   * @param source the annotation as written
   * @param cache the cache name (the annotation's or the class's)
   * @param ttl the entries' time to live, or {@code null} for the cache's
   * @param key the parsed key, or {@code null} for all arguments (or {@code allEntries})
   * @param condition the parsed condition, or {@code null} for always
   * @param unless the parsed unless, or {@code null} for never
   */
  public record Checked(
      CacheAnnotation source,
      String cache,
      Duration ttl,
      Expression key,
      Expression condition,
      Expression unless) {}

  /**
   * The outcome for one method.
   *
   * @param annotations the annotations, checked, in the order given; only usable without problems
   * @param problems every problem, one message each, empty when all is well
   */
  public record Result(List<Checked> annotations, List<String> problems) {
    /**
     * Copies the lists.
     *
     * @param annotations the annotations, checked, in the order given; only usable without problems
     * @param problems every problem, one message each, empty when all is well
     */
    public Result {
      annotations = List.copyOf(annotations);
      problems = List.copyOf(problems);
    }
  }

  /**
   * Checks the annotations of one method.
   *
   * @param method the method
   * @param defaults its class's defaults
   * @param annotations its chash annotations, in declaration order
   * @return the checked annotations and every problem
   */
  public static Result check(
      MethodShape method, Defaults defaults, List<CacheAnnotation> annotations) {
    List<String> problems = new ArrayList<>();
    List<Checked> checked = new ArrayList<>();
    for (CacheAnnotation a : annotations) {
      checked.add(checkOne(method, defaults, a, problems));
    }
    checkCombination(annotations, problems);
    return new Result(checked, problems);
  }

  /**
   * {@return why {@code #result} cannot be used in an attribute of an annotation, or {@code null}
   * where it can: it exists only once the method has returned}
   *
   * @param a the annotation
   * @param attribute the attribute of the annotation
   */
  public static String resultUnavailable(CacheAnnotation a, Attribute attribute) {
    if (a.kind() == Kind.CACHEABLE && attribute == Attribute.KEY) {
      return "#result is not available in the key of @ShardedCacheable: the key is looked up"
          + " before the method runs";
    }
    if (a.kind() == Kind.CACHEABLE && attribute == Attribute.CONDITION) {
      return "#result is not available in the condition of @ShardedCacheable: it is tested"
          + " before the method runs; use unless";
    }
    if (a.kind() == Kind.EVICT && a.beforeInvocation()) {
      return "#result is not available with beforeInvocation = true: the eviction happens before"
          + " the method runs";
    }
    return null;
  }

  /**
   * {@return {@code @ShardedCacheable condition "#id > 1" }: how a message names an expression}
   *
   * @param a the annotation
   * @param attribute the attribute of the annotation
   * @param text the expression as written
   */
  public static String describe(CacheAnnotation a, Attribute attribute, String text) {
    return a.displayName() + " " + attribute.label() + " \"" + text + "\"";
  }

  private static Checked checkOne(
      MethodShape method, Defaults defaults, CacheAnnotation a, List<String> problems) {
    String name = a.displayName();
    String cache = a.cache().isEmpty() ? defaults.cache() : a.cache();
    if (cache.isBlank()) {
      problems.add(
          name
              + " needs a cache name: set cache on it, or @ShardedCacheConfig(cache = ...) on the"
              + " class; was \""
              + cache
              + "\"");
    }
    if (method.returnsVoid() && a.kind() != Kind.EVICT) {
      problems.add(
          name
              + " on a void method: there is no result to "
              + (a.kind() == Kind.CACHEABLE ? "cache" : "store"));
    }
    Duration ttl = null;
    if (a.kind() != Kind.EVICT) {
      ttl =
          a.ttl().isEmpty()
              ? ttl(defaults.ttl(), "@ShardedCacheConfig", problems)
              : ttl(a.ttl(), name, problems);
    }
    if (a.allEntries() && !a.key().isEmpty()) {
      problems.add(
          name
              + " allEntries = true clears the whole cache and takes no key; was \""
              + a.key()
              + "\"");
    }
    if (a.sync() && !a.unless().isEmpty()) {
      problems.add(
          name
              + " sync = true cannot be combined with unless: the callers waiting for the load"
              + " share its value, cached or not");
    }
    Expression key = expression(method, a, Attribute.KEY, a.key(), ExpressionParser::key, problems);
    Expression condition =
        expression(
            method, a, Attribute.CONDITION, a.condition(), ExpressionParser::condition, problems);
    Expression unless =
        expression(method, a, Attribute.UNLESS, a.unless(), ExpressionParser::condition, problems);
    return new Checked(a, cache, ttl, key, condition, unless);
  }

  private static Duration ttl(String text, String annotation, List<String> problems) {
    if (text.isEmpty()) {
      return null;
    }
    // the rule of chash.yaml's ttl, so the scan, the aspect and the file say the same
    try {
      return CacheConfig.parseTtl(text, annotation + " ttl");
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return null;
    }
  }

  private static Expression expression(
      MethodShape method,
      CacheAnnotation a,
      Attribute attribute,
      String text,
      Function<String, Expression> parser,
      List<String> problems) {
    if (text.isEmpty()) {
      return null;
    }
    try {
      Expression parsed = parser.apply(text);
      String noResult = resultUnavailable(a, attribute);
      for (Expression.Reference ref : References.all(parsed)) {
        References.resolve(ref, method, noResult);
      }
      return parsed;
    } catch (ExpressionException e) {
      problems.add(describe(a, attribute, text) + " " + e.getMessage());
      return null;
    }
  }

  private static void checkCombination(List<CacheAnnotation> annotations, List<String> problems) {
    boolean cacheable = annotations.stream().anyMatch(a -> a.kind() == Kind.CACHEABLE);
    boolean put = annotations.stream().anyMatch(a -> a.kind() == Kind.PUT);
    if (cacheable && put) {
      problems.add(
          "@ShardedCacheable and @ShardedCachePut on one method contradict each other: one skips"
              + " the method on a hit, the other always runs it");
    }
    int count = annotations.size();
    if (count > 1 && annotations.stream().anyMatch(CacheAnnotation::sync)) {
      problems.add(
          "@ShardedCacheable sync = true must be the method's only chash annotation; it has "
              + count);
    }
  }
}
