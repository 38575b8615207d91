package io.github.chash.maven.scan;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.Durations;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Finds the methods annotated with {@code @ShardedCacheable}, {@code @ShardedCachePut} or
 * {@code @ShardedCacheEvict} in a directory of compiled classes and checks them against a
 * configuration, as the aspect would at each method's first call, but at build time:
 *
 * <ul>
 *   <li>the cache name is one {@code chash.yaml} defines;
 *   <li>the key expression parses, and each {@code #name} is a parameter of the method ({@code
 *       #p0}/{@code #a0} within the parameter count). Names need the class file's {@code
 *       MethodParameters} attribute ({@code javac -parameters}): without it a {@code #name} is a
 *       problem, since the aspect cannot resolve it either;
 *   <li>a {@code ttl} parses; {@code @ShardedCacheable}/{@code @ShardedCachePut} are not on void
 *       methods.
 * </ul>
 *
 * <p>Property paths ({@code #user.id}) are checked only up to the parameter: their types are not
 * loaded. Classes are read with ASM, never loaded, so the plugin needs neither the project's class
 * path nor the aspect. Stateless and thread-safe.
 */
public final class AnnotationScanner {
  private static final String PACKAGE = "Lio/github/chash/aspect/";
  private static final Map<String, String> ANNOTATIONS =
      Map.of(
          PACKAGE + "ShardedCacheable;", "@ShardedCacheable",
          PACKAGE + "ShardedCachePut;", "@ShardedCachePut",
          PACKAGE + "ShardedCacheEvict;", "@ShardedCacheEvict");

  private AnnotationScanner() {}

  /**
   * Scans every {@code .class} file under a directory, in path order.
   *
   * @param classesDir e.g. {@code target/classes}; a missing directory has no problems
   * @param config the configuration the annotations must agree with
   * @return the problems, one per annotation and check, empty when all is well
   * @throws UncheckedIOException if a class file cannot be read
   */
  public static List<ScanProblem> scan(Path classesDir, ChashConfig config) {
    List<ScanProblem> problems = new ArrayList<>();
    if (!Files.isDirectory(classesDir)) {
      return problems;
    }
    List<Path> classFiles;
    try (Stream<Path> files = Files.walk(classesDir)) {
      classFiles = files.filter(f -> f.toString().endsWith(".class")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the classes in " + classesDir, e);
    }
    for (Path file : classFiles) {
      try (InputStream in = Files.newInputStream(file)) {
        new ClassReader(in).accept(new ClassScan(config, problems), ClassReader.SKIP_CODE);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read class file " + file, e);
      }
    }
    return problems;
  }

  private static final class ClassScan extends ClassVisitor {
    private final ChashConfig config;
    private final List<ScanProblem> problems;
    private String className;

    ClassScan(ChashConfig config, List<ScanProblem> problems) {
      super(Opcodes.ASM9);
      this.config = config;
      this.problems = problems;
    }

    @Override
    public void visit(
        int version, int access, String name, String signature, String superName, String[] ifs) {
      className = name.replace('/', '.');
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      return new MethodScan(this, name, descriptor);
    }
  }

  private static final class MethodScan extends MethodVisitor {
    private final ClassScan owner;
    private final String name;
    private final Type type;
    private final List<String> parameterNames = new ArrayList<>();
    private final List<Map<String, Object>> annotations = new ArrayList<>();
    private final List<String> annotationNames = new ArrayList<>();

    MethodScan(ClassScan owner, String name, String descriptor) {
      super(Opcodes.ASM9);
      this.owner = owner;
      this.name = name;
      this.type = Type.getMethodType(descriptor);
    }

    @Override
    public void visitParameter(String parameterName, int access) {
      parameterNames.add(parameterName);
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      String annotation = ANNOTATIONS.get(descriptor);
      if (annotation == null) {
        return null;
      }
      Map<String, Object> values = new HashMap<>();
      annotations.add(values);
      annotationNames.add(annotation);
      return new AnnotationVisitor(Opcodes.ASM9) {
        @Override
        public void visit(String attribute, Object value) {
          values.put(attribute, value);
        }
      };
    }

    @Override
    public void visitEnd() {
      for (int i = 0; i < annotations.size(); i++) {
        check(annotationNames.get(i), annotations.get(i));
      }
    }

    private void check(String annotation, Map<String, Object> values) {
      String cache = (String) values.getOrDefault("cache", "");
      if (!owner.config.caches().containsKey(cache)) {
        problem(
            annotation
                + " names cache \""
                + cache
                + "\", which "
                + owner.config.source()
                + " does not define; "
                + (owner.config.caches().isEmpty()
                    ? "it defines no caches"
                    : "caches are: " + String.join(", ", owner.config.caches().keySet())));
      }
      boolean returnsNothing = type.getReturnType().equals(Type.VOID_TYPE);
      if (returnsNothing && !annotation.equals("@ShardedCacheEvict")) {
        problem(annotation + " on a void method: there is no result to cache");
      }
      String ttl = (String) values.getOrDefault("ttl", "");
      if (!ttl.isEmpty()) {
        try {
          if (Durations.parse(ttl).isZero()) {
            problem(annotation + " ttl must be positive; was \"" + ttl + "\"");
          }
        } catch (IllegalArgumentException e) {
          problem(annotation + " ttl \"" + ttl + "\" is invalid: " + e.getMessage());
        }
      }
      String key = (String) values.getOrDefault("key", "");
      if (!key.isEmpty()) {
        checkKey(annotation, key);
      }
    }

    private void checkKey(String annotation, String key) {
      List<KeyReferences.Reference> references;
      try {
        references = KeyReferences.of(key);
      } catch (IllegalArgumentException e) {
        problem(annotation + " key expression \"" + key + "\" " + e.getMessage());
        return;
      }
      int count = type.getArgumentTypes().length;
      boolean named = parameterNames.size() == count && !parameterNames.contains(null);
      for (KeyReferences.Reference ref : references) {
        if (named && parameterNames.contains(ref.name())) {
          continue;
        }
        int index = index(ref.name());
        if (index >= 0) {
          if (index >= count) {
            problem(
                keyAt(annotation, key, ref)
                    + "no parameter #"
                    + ref.name()
                    + "; the method has "
                    + count
                    + " parameter"
                    + (count == 1 ? "" : "s"));
          }
        } else if (!named) {
          problem(
              keyAt(annotation, key, ref)
                  + "parameter names are not in the class file: compile with -parameters"
                  + " (maven-compiler-plugin <parameters>true</parameters>) or use #p0"
                  + (count > 1 ? " to #p" + (count - 1) : ""));
        } else {
          problem(
              keyAt(annotation, key, ref)
                  + "no parameter named "
                  + ref.name()
                  + "; parameters are: "
                  + (count == 0 ? "(none)" : String.join(", ", parameterNames)));
        }
      }
    }

    private static String keyAt(String annotation, String key, KeyReferences.Reference ref) {
      return annotation + " key expression \"" + key + "\" at position " + ref.position() + ": ";
    }

    /** The index of {@code p3}/{@code a3}, or -1 for a name. */
    private static int index(String name) {
      if (name.length() < 2
          || name.length() > 6
          || (name.charAt(0) != 'p' && name.charAt(0) != 'a')) {
        return -1;
      }
      for (int i = 1; i < name.length(); i++) {
        if (!Character.isDigit(name.charAt(i))) {
          return -1;
        }
      }
      return Integer.parseInt(name.substring(1));
    }

    private void problem(String message) {
      owner.problems.add(new ScanProblem(owner.className, describe(), message));
    }

    private String describe() {
      StringJoiner params = new StringJoiner(", ", name + "(", ")");
      for (Type t : type.getArgumentTypes()) {
        String className = t.getClassName();
        params.add(className.substring(className.lastIndexOf('.') + 1));
      }
      return params.toString();
    }
  }
}
