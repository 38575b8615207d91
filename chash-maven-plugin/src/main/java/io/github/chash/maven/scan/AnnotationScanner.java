package io.github.chash.maven.scan;

import io.github.chash.config.ChashConfig;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.CacheAnnotation;
import io.github.chash.internal.keys.CacheAnnotation.Kind;
import io.github.chash.internal.keys.MethodShape;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Finds the methods annotated with {@code @ShardedCacheable}, {@code @ShardedCachePut} or
 * {@code @ShardedCacheEvict} (one or several) in a directory of compiled classes and checks them as
 * the aspect does at each method's first call, but at build time: the runtime's {@link
 * AnnotationRules} (cache name given here or by the class's {@code @ShardedCacheConfig}, key
 * expressions, conditions and {@code unless} parse and name what the method has, {@code #result}
 * only where the method has run, ttl, attributes and annotations that contradict each other), and,
 * here only, that each cache is one {@code chash.yaml} defines.
 *
 * <p>{@code #name} needs the parameter names in the class file: the {@code MethodParameters}
 * attribute ({@code javac -parameters}) or, as AspectJ weaving reads them, the local variable table
 * of javac's debug information (Maven's default). A class with neither gets the aspect's message
 * about {@code -parameters}. The scanner cannot tell whether Spring proxies will advise a class,
 * and those need {@code -parameters}: a class with only debug information passes here and fails at
 * its first call under Spring, with that message.
 *
 * <p>Property paths ({@code #user.id}) are checked only up to the parameter: their types are not
 * loaded. Classes are read with ASM, never loaded, so the plugin needs neither the project's class
 * path nor the aspect. Stateless and thread-safe.
 */
public final class AnnotationScanner {
  private static final String PACKAGE = "Lio/github/chash/aspect/";
  private static final String CONFIG = PACKAGE + "ShardedCacheConfig;";
  private static final Map<String, Kind> ANNOTATIONS =
      Map.of(
          PACKAGE + "ShardedCacheable;", Kind.CACHEABLE,
          PACKAGE + "ShardedCachePut;", Kind.PUT,
          PACKAGE + "ShardedCacheEvict;", Kind.EVICT);
  private static final Map<String, Kind> CONTAINERS =
      Map.of(
          PACKAGE + "ShardedCacheable$List;", Kind.CACHEABLE,
          PACKAGE + "ShardedCachePut$List;", Kind.PUT,
          PACKAGE + "ShardedCacheEvict$List;", Kind.EVICT);

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
        // The code is read for its local variable table (parameter names), never its frames.
        new ClassReader(in).accept(new ClassScan(config, problems), ClassReader.SKIP_FRAMES);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read class file " + file, e);
      }
    }
    return problems;
  }

  /** The values of one annotation, by attribute name. */
  private static final class Values extends AnnotationVisitor {
    final Map<String, Object> values = new HashMap<>();

    Values() {
      super(Opcodes.ASM9);
    }

    @Override
    public void visit(String attribute, Object value) {
      values.put(attribute, value);
    }

    String string(String attribute) {
      return (String) values.getOrDefault(attribute, "");
    }

    boolean flag(String attribute) {
      return (Boolean) values.getOrDefault(attribute, false);
    }

    CacheAnnotation toAnnotation(Kind kind) {
      return new CacheAnnotation(
          kind,
          string("cache"),
          string("key"),
          string("condition"),
          string("unless"),
          string("ttl"),
          flag("sync"),
          flag("cacheNull"),
          flag("beforeInvocation"),
          flag("allEntries"));
    }
  }

  private static final class ClassScan extends ClassVisitor {
    private final ChashConfig config;
    private final List<ScanProblem> problems;
    private String className;
    private Values classConfig;

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
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      // ASM visits a class's annotations before its methods.
      if (descriptor.equals(CONFIG)) {
        classConfig = new Values();
        return classConfig;
      }
      return null;
    }

    AnnotationRules.Defaults defaults() {
      return classConfig == null
          ? AnnotationRules.Defaults.NONE
          : new AnnotationRules.Defaults(classConfig.string("cache"), classConfig.string("ttl"));
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      // javac copies a method's annotations to its bridges, which have no parameter names; the
      // aspect never advises them.
      if ((access & (Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC)) != 0) {
        return null;
      }
      return new MethodScan(this, access, name, descriptor);
    }
  }

  private static final class MethodScan extends MethodVisitor {
    private final ClassScan owner;
    private final String name;
    private final Type type;
    private final List<String> methodParameters = new ArrayList<>();
    private final String[] localVariableNames;
    private Label codeStart;
    private final int[] parameterSlots;
    private final List<Kind> kinds = new ArrayList<>();
    private final List<Values> annotations = new ArrayList<>();

    MethodScan(ClassScan owner, int access, String name, String descriptor) {
      super(Opcodes.ASM9);
      this.owner = owner;
      this.name = name;
      this.type = Type.getMethodType(descriptor);
      Type[] arguments = type.getArgumentTypes();
      parameterSlots = new int[arguments.length];
      int slot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
      for (int i = 0; i < arguments.length; i++) {
        parameterSlots[i] = slot;
        slot += arguments[i].getSize();
      }
      localVariableNames = new String[arguments.length];
    }

    @Override
    public void visitParameter(String parameterName, int access) {
      methodParameters.add(parameterName);
    }

    @Override
    public void visitLabel(Label label) {
      // The reader visits labels in code order: a parameter's scope starts at the first one.
      if (codeStart == null) {
        codeStart = label;
      }
    }

    @Override
    public void visitLocalVariable(
        String variable, String descriptor, String signature, Label start, Label end, int index) {
      if (start != codeStart) {
        return;
      }
      for (int i = 0; i < parameterSlots.length; i++) {
        if (parameterSlots[i] == index && localVariableNames[i] == null) {
          localVariableNames[i] = variable;
        }
      }
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      Kind kind = ANNOTATIONS.get(descriptor);
      if (kind != null) {
        return annotation(kind);
      }
      Kind repeated = CONTAINERS.get(descriptor);
      if (repeated == null) {
        return null;
      }
      return new AnnotationVisitor(Opcodes.ASM9) {
        @Override
        public AnnotationVisitor visitArray(String attribute) {
          return new AnnotationVisitor(Opcodes.ASM9) {
            @Override
            public AnnotationVisitor visitAnnotation(String unnamed, String elementDescriptor) {
              return annotation(repeated);
            }
          };
        }
      };
    }

    private Values annotation(Kind kind) {
      Values values = new Values();
      kinds.add(kind);
      annotations.add(values);
      return values;
    }

    @Override
    public void visitEnd() {
      if (annotations.isEmpty()) {
        return;
      }
      List<CacheAnnotation> declared = new ArrayList<>();
      for (int i = 0; i < annotations.size(); i++) {
        declared.add(annotations.get(i).toAnnotation(kinds.get(i)));
      }
      MethodShape shape =
          new MethodShape(
              parameterNames(), parameterSlots.length, type.getReturnType().equals(Type.VOID_TYPE));
      AnnotationRules.Result result = AnnotationRules.check(shape, owner.defaults(), declared);
      result.problems().forEach(this::problem);
      for (AnnotationRules.Checked checked : result.annotations()) {
        checkCacheDefined(checked);
      }
    }

    /** From {@code MethodParameters}, else the local variable table, else null. */
    private List<String> parameterNames() {
      if (methodParameters.size() == parameterSlots.length && !methodParameters.contains(null)) {
        return methodParameters;
      }
      List<String> fromDebugInfo = Arrays.asList(localVariableNames);
      return fromDebugInfo.contains(null) ? null : fromDebugInfo;
    }

    private void checkCacheDefined(AnnotationRules.Checked checked) {
      String cache = checked.cache();
      ChashConfig config = owner.config;
      if (cache.isBlank() || config.caches().containsKey(cache)) {
        return;
      }
      problem(
          checked.source().displayName()
              + " names cache \""
              + cache
              + "\", which "
              + config.source()
              + " does not define; "
              + (config.caches().isEmpty()
                  ? "it defines no caches"
                  : "caches are: " + String.join(", ", config.caches().keySet())));
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
