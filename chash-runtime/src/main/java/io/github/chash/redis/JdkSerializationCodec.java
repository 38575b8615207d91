package io.github.chash.redis;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * JDK serialization behind an {@link ObjectInputFilter} allow-list: deserializing bytes from a
 * shared server is an attack surface (gadget chains), so only the JDK's value packages and the
 * configured patterns may be instantiated; everything else is refused before any of its code runs.
 */
final class JdkSerializationCodec implements ValueCodec {
  /** Always allowed: JDK value types, and the marker of a cached null. */
  static final List<String> BUILT_IN_ALLOWED =
      List.of(
          "java.lang.*",
          "java.util.*",
          "java.time.*",
          "java.math.*",
          "io.github.chash.cache.NullValue");

  /** Bounds against resource-exhaustion payloads; generous for real cache values. */
  private static final String LIMITS = "maxdepth=64;maxrefs=1000000;maxarray=100000000";

  private static final Pattern CLASS_PATTERN =
      Pattern.compile(
          "!?[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*"
              + "(\\.[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*)*"
              + "(\\.\\*\\*|\\.\\*|\\*)?");

  private final ObjectInputFilter filter;

  /**
   * @param allowed class names or package patterns ({@code com.example.Order}, {@code
   *     com.example.*}, {@code com.example.**}, {@code com.example.Ord*}), or refusals ({@code
   *     !com.example.Bad}); they are checked before the built-in ones, first match wins
   * @throws IllegalArgumentException naming the first pattern that is not one of these forms
   */
  JdkSerializationCodec(List<String> allowed) {
    List<String> patterns = new ArrayList<>();
    for (String pattern : allowed) {
      if (pattern == null || !CLASS_PATTERN.matcher(pattern).matches()) {
        throw new IllegalArgumentException(
            "redis.allow entry "
                + (pattern == null ? "null" : "\"" + pattern + "\"")
                + " is not a class name or package pattern (com.example.Order, com.example.*,"
                + " com.example.**, !com.example.Bad)");
      }
      patterns.add(pattern);
    }
    patterns.addAll(BUILT_IN_ALLOWED);
    this.filter =
        ObjectInputFilter.Config.createFilter(LIMITS + ";" + String.join(";", patterns) + ";!*");
  }

  @Override
  public byte[] encode(Object value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (NotSerializableException e) {
      throw new CodecException(
          "value of class "
              + value.getClass().getName()
              + " is not serializable (it or a field"
              + " of class "
              + e.getMessage()
              + " does not implement java.io.Serializable)",
          e);
    } catch (IOException e) {
      throw new CodecException("cannot serialize value of class " + value.getClass().getName(), e);
    }
    return bytes.toByteArray();
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    RecordingFilter recording = new RecordingFilter(filter);
    try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes))) {
      in.setObjectInputFilter(recording);
      return in.readObject();
    } catch (InvalidClassException e) {
      if (recording.refused != null) {
        throw new CodecException(
            "class " + recording.refused + " is not allowed by redis.allow",
            recording.refused,
            null);
      }
      throw new CodecException("cannot deserialize value: " + e.getMessage(), e);
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      throw new CodecException("cannot deserialize value: " + e, e);
    }
  }

  @Override
  public String name() {
    return "jdk";
  }

  /**
   * Resolves classes through the thread's context class loader (else this library's), instead of
   * the JDK's stack walk for the "latest user-defined loader", which costs more than a loopback
   * round trip's worth of CPU on small values. Like the JDK's, it loads without initializing; the
   * filter then accepts or refuses the class before any instance exists.
   */
  private static final class LoaderObjectInputStream extends ObjectInputStream {
    LoaderObjectInputStream(ByteArrayInputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      if (loader == null) {
        loader = JdkSerializationCodec.class.getClassLoader();
      }
      try {
        return Class.forName(desc.getName(), false, loader);
      } catch (ClassNotFoundException e) {
        return super.resolveClass(desc); // primitives, and loaders that see less than the caller
      }
    }
  }

  /** Remembers the class the filter refused, for the log line (the JDK's message is vaguer). */
  private static final class RecordingFilter implements ObjectInputFilter {
    private final ObjectInputFilter delegate;
    private String refused;

    RecordingFilter(ObjectInputFilter delegate) {
      this.delegate = delegate;
    }

    @Override
    public Status checkInput(FilterInfo info) {
      Status status = delegate.checkInput(info);
      if (status == Status.REJECTED && refused == null) {
        Class<?> c = info.serialClass();
        while (c != null && c.isArray()) {
          c = c.getComponentType();
        }
        refused =
            c != null
                ? c.getName()
                : "(limit exceeded: depth "
                    + info.depth()
                    + ", references "
                    + info.references()
                    + ", array length "
                    + info.arrayLength()
                    + ")";
      }
      return status;
    }
  }
}
