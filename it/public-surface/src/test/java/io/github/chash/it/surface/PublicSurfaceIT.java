package io.github.chash.it.surface;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * The descriptors of chash-ring, chash-runtime and chash-aspect against the code that uses them:
 * every chash class that the aspect, the plugin, the starter, the node artifacts and the it/
 * modules (woven classes and tests) refer to must lie in a package the owning descriptor exports to
 * the user, so an internal package cannot leak into a user's code unnoticed. Class files are read
 * with ASM, so references javac inlined from a source never show up but every type in a signature,
 * a call or a field does.
 */
class PublicSurfaceIT {
  private static final List<String> CHASH = List.of("io/github/chash/");
  private static ModuleDescriptor ring;
  private static ModuleDescriptor runtime;
  private static ModuleDescriptor aspect;

  @BeforeAll
  static void readDescriptors() {
    ring = descriptorOf("io.github.chash.ring.Ring");
    runtime = descriptorOf("io.github.chash.cache.ShardedCaches");
    aspect = descriptorOf("io.github.chash.aspect.ShardedCacheable");
  }

  @Test
  void theRingIsAModuleOfItsOwn_needingHash4jAlone() {
    assertThat(ring.name()).isEqualTo("io.github.chash.ring");
    assertThat(exports(ring)).isEqualTo(Map.of("io.github.chash.ring", Set.of()));
    assertThat(ring.requires())
        .extracting(ModuleDescriptor.Requires::name)
        .containsExactlyInAnyOrder("java.base", "com.dynatrace.hash4j");
  }

  @Test
  void theRuntimeExportsItsApiAndSharesItsInternalsWithChashsModulesOnly() {
    assertThat(runtime.name()).isEqualTo("io.github.chash.runtime");
    assertThat(runtime.requires())
        .anySatisfy(
            r -> {
              assertThat(r.name()).isEqualTo("io.github.chash.ring");
              assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE);
            });
    Map<String, Set<String>> exports = exports(runtime);
    assertThat(exports)
        .doesNotContainKey("io.github.chash.ring")
        .doesNotContainKey("io.github.chash.redis")
        .doesNotContainKey("io.github.chash.memcached")
        .containsEntry("io.github.chash.cache", Set.of())
        .containsEntry("io.github.chash.config", Set.of())
        .containsEntry("io.github.chash.analysis", Set.of())
        .containsEntry("io.github.chash.membership", Set.of())
        .containsEntry(
            "io.github.chash.internal.cache",
            Set.of(
                "io.github.chash.aspect",
                "io.github.chash.spring.boot",
                "io.github.chash.memcached"))
        .containsEntry(
            "io.github.chash.internal.keys",
            Set.of(
                "io.github.chash.aspect",
                "io.github.chash.maven",
                "io.github.chash.redis",
                "io.github.chash.memcached"))
        .containsEntry(
            "io.github.chash.internal.node",
            Set.of("io.github.chash.redis", "io.github.chash.memcached"));
    exports.forEach(
        (pkg, targets) ->
            assertThat(pkg.startsWith("io.github.chash.internal."))
                .as(pkg + " is exported to " + (targets.isEmpty() ? "everyone" : targets))
                .isEqualTo(!targets.isEmpty()));
    assertThat(aspect.name()).isEqualTo("io.github.chash.aspect");
    assertThat(exports(aspect)).doesNotContainKey("io.github.chash.aspect.internal");
  }

  @Test
  void theNodeArtifactsAreAutomaticModules_providingTheirNodeTypes() {
    for (String factory :
        List.of(
            "io.github.chash.redis.RedisCacheNodeFactory",
            "io.github.chash.memcached.MemcachedCacheNodeFactory")) {
      ModuleDescriptor d =
          ModuleFinder.of(location(factory)).findAll().iterator().next().descriptor();
      assertThat(d.isAutomatic()).as(factory).isTrue();
      assertThat(d.name()).isEqualTo(factory.substring(0, factory.lastIndexOf('.')));
      assertThat(d.provides())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.service()).isEqualTo("io.github.chash.cache.CacheNodeFactory");
                assertThat(p.providers()).containsExactly(factory);
              });
    }
  }

  @Test
  void theNodeArtifactsUseOnlyWhatTheRuntimeExportsToThem() {
    assertThat(violations(codeOf("io.github.chash.redis.RedisCacheNode"))).isEmpty();
    assertThat(violations(codeOf("io.github.chash.memcached.MemcachedCacheNode"))).isEmpty();
  }

  @Test
  void theAspectUsesOnlyWhatTheRuntimeExportsToIt() {
    assertThat(violations(codeOf("io.github.chash.aspect.ShardedCacheable"))).isEmpty();
  }

  @Test
  void theCheckSeesInternalUseFromAModuleTheExportDoesNotName() {
    // the aspect's classes, as if they ran in the unnamed module: its internal.keys use is caught
    Code unnamed = new Code(location("io.github.chash.aspect.ShardedCacheable"), null);
    assertThat(violations(unnamed).values())
        .anySatisfy(
            refs -> assertThat(refs).anyMatch(r -> r.startsWith("io.github.chash.internal.keys.")));
  }

  @Test
  void thePluginUsesOnlyWhatTheRuntimeExportsToIt() {
    assertThat(violations(codeOf("io.github.chash.maven.ValidateMojo"))).isEmpty();
  }

  @Test
  void theStarterUsesOnlyExportedPackages() {
    assertThat(violations(codeOf("io.github.chash.spring.boot.ChashAutoConfiguration"))).isEmpty();
  }

  @Test
  void theItModulesWovenClassesAndTestsUseOnlyExportedPackages() throws IOException {
    Path it = Path.of("..").toAbsolutePath().normalize();
    List<Path> scanned = new ArrayList<>();
    try (Stream<Path> modules = Files.list(it)) {
      for (Path module : modules.sorted().toList()) {
        for (String dir : List.of("target/classes", "target/test-classes")) {
          Path classes = module.resolve(dir);
          if (Files.isDirectory(classes) && !module.endsWith("public-surface")) {
            scanned.add(classes);
          }
        }
      }
    }
    assertThat(scanned)
        .as("it/ class directories (the reactor builds them first)")
        .hasSizeGreaterThan(6);
    Map<String, Set<String>> all = new TreeMap<>();
    for (Path classes : scanned) {
      violations(new Code(classes, null))
          .forEach((k, v) -> all.put(it.relativize(classes) + ": " + k, v));
    }
    assertThat(all).isEmpty();
  }

  @Test
  void theRuntimeRunsOnTheModulePath() throws Exception {
    // its own jar and those its descriptor requires (not the static ones), in a layer of their own;
    // and chash-memcached with XMemcached, which has no module name: with no add-reads, its node
    // type is found and made (a node connects in the background, so no server is needed)
    ModuleFinder finder =
        ModuleFinder.of(
            location("io.github.chash.cache.ShardedCaches"),
            location("io.github.chash.ring.Ring"),
            location("com.dynatrace.hash4j.hashing.Hashing"),
            location("com.github.benmanes.caffeine.cache.Caffeine"),
            location("org.snakeyaml.engine.v2.api.Load"),
            location("io.github.chash.memcached.MemcachedCacheNodeFactory"),
            location("net.rubyeye.xmemcached.XMemcachedClient"),
            location("org.slf4j.Logger"));
    ModuleLayer boot = ModuleLayer.boot();
    Configuration cf =
        boot.configuration()
            .resolveAndBind(
                finder,
                ModuleFinder.of(),
                Set.of("io.github.chash.runtime", "io.github.chash.memcached"));
    ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    ClassLoader loader = layer.findLoader("io.github.chash.runtime");
    Class<?> configs = loader.loadClass("io.github.chash.config.ChashConfigs");
    Object config =
        configs
            .getMethod("parse", String.class, String.class)
            .invoke(
                null,
                "nodes:\n  - {id: a, type: local}\n  - {id: b, type: local}\n"
                    + "  - {id: m, type: memcached, uri: 'memcached://127.0.0.1:1'}\n"
                    + "caches:\n  users: {ttl: 1h}\n",
                "chash.yaml");
    Class<?> caches = loader.loadClass("io.github.chash.cache.ShardedCaches");
    // node types are looked up through the thread's context loader, which an application on the
    // module path has as its modules' loader; this layer's loader stands in for it
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    Object manager;
    try {
      manager =
          caches
              .getMethod("create", loader.loadClass("io.github.chash.config.ChashConfig"))
              .invoke(null, config);
    } finally {
      thread.setContextClassLoader(before);
    }
    try {
      // through the exported interfaces: the classes behind them are not exported
      Class<?> managerType = loader.loadClass("io.github.chash.cache.ShardedCacheManager");
      Object memcachedNode = managerType.getMethod("node", String.class).invoke(manager, "m");
      assertThat(memcachedNode.getClass().getModule().getName())
          .isEqualTo("io.github.chash.memcached");
      Object cache = managerType.getMethod("cache", String.class).invoke(manager, "users");
      Class<?> shardedCache = loader.loadClass("io.github.chash.cache.ShardedCache");
      Object users = shardedCache.getMethod("typed", Class.class).invoke(cache, String.class);
      Class<?> typed = loader.loadClass("io.github.chash.cache.TypedCache");
      for (long id = 0; id < 100; id++) {
        typed.getMethod("put", Object.class, Object.class).invoke(users, id, "Ada " + id);
      }
      // a's and b's keys round-trip; m's server is dead (its keys miss until it is ejected)
      long hits = 0;
      for (long id = 0; id < 100; id++) {
        Object got = typed.getMethod("getIfPresent", Object.class).invoke(users, id);
        assertThat(got).isIn(null, "Ada " + id);
        hits += got == null ? 0 : 1;
      }
      assertThat(hits).isGreaterThanOrEqualTo(30L);
      assertThat(shardedCache.getModule().getName()).isEqualTo("io.github.chash.runtime");
    } finally {
      ((AutoCloseable) manager).close();
    }
  }

  /** Class file -> chash classes it refers to in packages not exported to it. */
  private static Map<String, Set<String>> violations(Code code) {
    Map<String, Set<String>> found = new TreeMap<>();
    code.classFiles()
        .forEach(
            (name, bytes) -> {
              Set<String> bad = new TreeSet<>();
              for (String ref : references(bytes)) {
                String pkg =
                    ref.contains("/")
                        ? ref.substring(0, ref.lastIndexOf('/')).replace('/', '.')
                        : "";
                if (!pkg.startsWith("io.github.chash.") || code.owns(pkg)) {
                  continue;
                }
                ModuleDescriptor owner =
                    pkg.startsWith("io.github.chash.aspect")
                        ? aspect
                        : pkg.startsWith("io.github.chash.ring") ? ring : runtime;
                if (!owner.packages().contains(pkg)) {
                  continue; // another module's or a test-jar's own package (io.github.chash.it...)
                }
                if (!exportedTo(owner, pkg, code.module())) {
                  bad.add(ref.replace('/', '.'));
                }
              }
              if (!bad.isEmpty()) {
                found.put(name, bad);
              }
            });
    return found;
  }

  private static boolean exportedTo(ModuleDescriptor owner, String pkg, String user) {
    return owner.exports().stream()
        .anyMatch(
            e ->
                e.source().equals(pkg)
                    && (!e.isQualified() || (user != null && e.targets().contains(user))));
  }

  private static Set<String> references(byte[] bytes) {
    Set<String> refs = new TreeSet<>();
    Remapper collect =
        new Remapper(Opcodes.ASM9) {
          @Override
          public String map(String internalName) {
            if (CHASH.stream().anyMatch(internalName::startsWith)) {
              refs.add(internalName);
            }
            return internalName;
          }
        };
    new ClassReader(bytes).accept(new ClassRemapper(new ClassVisitor(Opcodes.ASM9) {}, collect), 0);
    return refs;
  }

  private static Map<String, Set<String>> exports(ModuleDescriptor d) {
    Map<String, Set<String>> out = new TreeMap<>();
    d.exports().forEach(e -> out.put(e.source(), e.targets()));
    return out;
  }

  private static ModuleDescriptor descriptorOf(String className) {
    Path jar = location(className);
    assertThat(jar.toString())
        .as("failsafe puts the reactor's jars on the class path")
        .endsWith(".jar");
    Optional<ModuleReference> ref = ModuleFinder.of(jar).findAll().stream().findFirst();
    assertThat(ref).isPresent();
    ModuleDescriptor d = ref.get().descriptor();
    assertThat(d.isAutomatic()).as(jar + " has a module-info.class").isFalse();
    return d;
  }

  private static Code codeOf(String className) {
    Path jar = location(className);
    return new Code(jar, moduleName(jar));
  }

  /** The module a jar is when put on the module path: its descriptor, else its manifest's name. */
  private static String moduleName(Path jar) {
    try (JarFile file = new JarFile(jar.toFile())) {
      if (file.getEntry("module-info.class") != null) {
        return ModuleFinder.of(jar).findAll().iterator().next().descriptor().name();
      }
      Manifest m = file.getManifest();
      return m == null ? null : m.getMainAttributes().getValue("Automatic-Module-Name");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The jar or directory of the class path that holds a class, found without loading it. */
  private static Path location(String className) {
    String resource = className.replace('.', '/') + ".class";
    URL url = PublicSurfaceIT.class.getClassLoader().getResource(resource);
    assertThat(url).as(resource + " on the class path").isNotNull();
    try {
      if (url.getProtocol().equals("jar")) {
        String file = url.getPath();
        return Path.of(new URI(file.substring(0, file.indexOf("!/"))));
      }
      Path path = Path.of(url.toURI());
      for (int i = 0; i < className.split("\\.").length; i++) {
        path = path.getParent();
      }
      return path;
    } catch (URISyntaxException e) {
      throw new AssertionError(url + " is not a file", e);
    }
  }

  /** Class files of a jar or a directory, and the module name they run as (null: unnamed). */
  private record Code(Path path, String module) {
    boolean owns(String pkg) {
      return module != null && pkg.startsWith(module + ".") || pkg.equals(module);
    }

    Map<String, byte[]> classFiles() {
      Map<String, byte[]> out = new TreeMap<>();
      try {
        if (Files.isDirectory(path)) {
          try (Stream<Path> files = Files.walk(path)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
              out.put(path.relativize(f).toString(), Files.readAllBytes(f));
            }
          }
        } else {
          try (JarFile jar = new JarFile(path.toFile())) {
            for (var e : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
              if (e.getName().endsWith("module-info.class")) {
                continue;
              }
              try (InputStream in = jar.getInputStream(e)) {
                out.put(e.getName(), in.readAllBytes());
              }
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return out;
    }
  }
}
