package io.github.chash.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.internal.keys.AnnotationRules.Defaults;
import io.github.chash.internal.keys.AnnotationRules.Result;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnnotationRulesTest {
  private static final MethodShape FIND = new MethodShape(List.of("id"), 1, false);
  private static final MethodShape DELETE = new MethodShape(List.of("id"), 1, true);

  private static CacheAnnotation cacheable(String key, String condition, String unless) {
    return CacheAnnotation.cacheable("users", key, condition, unless, "", false, false);
  }

  /** The rule chash.yaml's ttls are read with, as its message tail for a ttl written as text. */
  private static String ttlProblem(String text) {
    try {
      CacheConfig.parseTtl(text, "ttl");
    } catch (IllegalArgumentException e) {
      return e.getMessage().substring("ttl ".length());
    }
    throw new AssertionError(text + " is a valid ttl");
  }

  private static List<String> problems(MethodShape method, CacheAnnotation... annotations) {
    return AnnotationRules.check(method, Defaults.NONE, List.of(annotations)).problems();
  }

  @Test
  void check_validAnnotationsComeBackParsedWithTheirDefaults() {
    Result result =
        AnnotationRules.check(
            FIND,
            new Defaults("users", "2h"),
            List.of(
                CacheAnnotation.cacheable(
                    "", "#id", "#id != null", "#result == null", "", false, false)));
    assertThat(result.problems()).isEmpty();
    AnnotationRules.Checked checked = result.annotations().get(0);
    assertThat(checked.cache()).isEqualTo("users");
    assertThat(checked.ttl()).isEqualTo(Duration.ofHours(2));
    assertThat(checked.key()).isInstanceOf(Expression.Reference.class);
    assertThat(checked.condition()).isInstanceOf(Expression.Comparison.class);
    assertThat(checked.unless()).isInstanceOf(Expression.Comparison.class);
  }

  @Test
  void check_theAnnotationsOwnValuesBeatTheDefaults() {
    Result result =
        AnnotationRules.check(
            FIND,
            new Defaults("users", "2h"),
            List.of(CacheAnnotation.put("orders", "", "", "", "5m")));
    assertThat(result.annotations().get(0).cache()).isEqualTo("orders");
    assertThat(result.annotations().get(0).ttl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(result.annotations().get(0).key()).isNull();
  }

  @Test
  void check_missingCacheNameSaysWhereToSetIt() {
    assertThat(problems(FIND, CacheAnnotation.cacheable("", "", "", "", "", false, false)))
        .containsExactly(
            "@ShardedCacheable needs a cache name: set cache on it, or @ShardedCacheConfig(cache"
                + " = ...) on the class; was \"\"");
  }

  @Test
  void check_resultOnlyWhereTheMethodHasRun() {
    assertThat(problems(FIND, cacheable("#result", "", "")))
        .containsExactly(
            "@ShardedCacheable key expression \"#result\" at position 1: #result is not"
                + " available in the key of @ShardedCacheable: the key is looked up before the"
                + " method runs");
    assertThat(problems(FIND, cacheable("", "#result != null", "")))
        .containsExactly(
            "@ShardedCacheable condition \"#result != null\" at position 1: #result is not"
                + " available in the condition of @ShardedCacheable: it is tested before the"
                + " method runs; use unless");
    assertThat(problems(FIND, cacheable("", "", "#result == null"))).isEmpty();
    assertThat(
            problems(
                FIND,
                CacheAnnotation.put("users", "#result.id", "#result != null", "#result.draft", "")))
        .isEmpty();
    assertThat(problems(DELETE, CacheAnnotation.evict("users", "#result", "", false, false)))
        .containsExactly(
            "@ShardedCacheEvict key expression \"#result\" at position 1: the method returns"
                + " nothing, so #result would always be null");
    assertThat(problems(FIND, CacheAnnotation.evict("users", "", "#result == 1", true, false)))
        .containsExactly(
            "@ShardedCacheEvict condition \"#result == 1\" at position 1: #result is not available"
                + " with beforeInvocation = true: the eviction happens before the method runs");
  }

  @Test
  void check_syntaxAndReferenceErrorsNameAttributeExpressionAndPosition() {
    assertThat(problems(FIND, cacheable("#idd", "#id &&", "")))
        .containsExactly(
            "@ShardedCacheable key expression \"#idd\" at position 1: no parameter named idd;"
                + " parameters are: id",
            "@ShardedCacheable condition \"#id &&\" at position 5: found '&&'; write and");
  }

  @Test
  void check_ttlOfTheAnnotationOrOfTheClass() {
    assertThat(problems(FIND, CacheAnnotation.cacheable("users", "", "", "", "0s", false, false)))
        .containsExactly("@ShardedCacheable ttl must be positive, was \"0s\"");
    assertThat(problems(FIND, CacheAnnotation.put("users", "", "", "", "10x")))
        .singleElement()
        .asString()
        .isEqualTo("@ShardedCachePut ttl " + ttlProblem("10x"));
    assertThat(
            AnnotationRules.check(
                    FIND,
                    new Defaults("", "ten minutes"),
                    List.of(CacheAnnotation.cacheable("users", "", "", "", "", false, false)))
                .problems())
        .singleElement()
        .asString()
        .isEqualTo("@ShardedCacheConfig ttl " + ttlProblem("ten minutes"));
  }

  @Test
  void check_voidMethodsHaveNothingToCacheOrStore() {
    assertThat(
            problems(DELETE, cacheable("", "", ""), CacheAnnotation.put("users", "", "", "", "")))
        .contains(
            "@ShardedCacheable on a void method: there is no result to cache",
            "@ShardedCachePut on a void method: there is no result to store");
    assertThat(problems(DELETE, CacheAnnotation.evict("users", "#id", "", false, false))).isEmpty();
  }

  @Test
  void check_attributesThatContradictEachOther() {
    assertThat(problems(FIND, CacheAnnotation.evict("users", "#id", "", false, true)))
        .containsExactly(
            "@ShardedCacheEvict allEntries = true clears the whole cache and takes no key; was"
                + " \"#id\"");
    assertThat(
            problems(
                FIND,
                CacheAnnotation.cacheable("users", "", "", "#result == null", "", true, false)))
        .containsExactly(
            "@ShardedCacheable sync = true cannot be combined with unless: the callers waiting"
                + " for the load share its value, cached or not");
  }

  @Test
  void check_combinationsOnOneMethod() {
    assertThat(
            problems(
                FIND,
                CacheAnnotation.evict("users", "", "", false, false),
                CacheAnnotation.evict("orders", "", "", true, true),
                CacheAnnotation.put("users", "", "", "", "")))
        .isEmpty();
    assertThat(
            problems(
                FIND,
                CacheAnnotation.cacheable("users", "", "", "", "", false, false),
                CacheAnnotation.cacheable("orders", "", "", "", "", false, false)))
        .isEmpty();
    assertThat(problems(FIND, cacheable("", "", ""), CacheAnnotation.put("users", "", "", "", "")))
        .containsExactly(
            "@ShardedCacheable and @ShardedCachePut on one method contradict each other: one"
                + " skips the method on a hit, the other always runs it");
    assertThat(
            problems(
                FIND,
                CacheAnnotation.cacheable("users", "", "", "", "", true, false),
                CacheAnnotation.evict("orders", "", "", false, false)))
        .containsExactly(
            "@ShardedCacheable sync = true must be the method's only chash annotation; it has 2");
  }
}
