package io.github.chash.internal.codec;

import io.github.chash.internal.text.Quotes;
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
public final class JdkSerializationCodec implements ValueCodec {
  /** Always allowed: JDK value types, and the marker of a cached null. */
  static final List<String> BUILT_IN_ALLOWED =
      List.of(
          "java.lang.*",
          "java.util.*",
          "java.time.*",
          "java.math.*",
          "io.github.chash.internal.cache.NullValue");

  /**
   * The deepest object graph a stored value may have. Arrays, references and bytes are bounded by
   * the value's own size instead (see {@link BoundedFilter}).
   */
  static final int MAX_DEPTH = 64;

  /**
   * The deepest a stored value holding a hash set or map may be. Reading one hashes its elements,
   * and the hash of a set of sets is computed all the way down: nested hash sets two to a level
   * make that work double with each level though the value stays small (a 1.6 KB value 28 levels
   * deep took 11.6 s to read). At this depth the work is still a few milliseconds; the bombs are
   * refused when their first set beyond it is read, before any of it is hashed.
   */
  static final int MAX_HASHED_DEPTH = 16;

  /** One class name or package pattern, optionally refused with {@code !}. */
  private static final Pattern CLASS_PATTERN =
      Pattern.compile(
          "!?[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*"
              + "(\\.[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*)*"
              + "(\\.\\*\\*|\\.\\*|\\*)?");

  private final ObjectInputFilter filter;
  private final String allowKey;

  /**
   * @param allowed class names or package patterns ({@code com.example.Order}, {@code
   *     com.example.*}, {@code com.example.**}, {@code com.example.Ord*}), or refusals ({@code
   *     !com.example.Bad}); they are checked before the built-in ones, first match wins
   * @throws IllegalArgumentException naming the first pattern that breaks {@link #allowProblem}'s
   *     rule
   */
  public JdkSerializationCodec(List<String> allowed) {
    this(allowed, "redis");
  }

  /**
   * A codec whose messages name {@code block.allow} ({@code redis}, {@code memcached}).
   *
   * @param allowed the class patterns allowed besides the JDK's value classes
   * @param block the configuration block the patterns come from, for messages
   * @throws IllegalArgumentException as {@link #JdkSerializationCodec(List)} does
   */
  public JdkSerializationCodec(List<String> allowed, String block) {
    this.allowKey = block + ".allow";
    List<String> patterns = new ArrayList<>();
    for (String pattern : allowed) {
      String problem = allowProblem(pattern);
      if (problem != null) {
        throw new IllegalArgumentException(allowKey + " entry " + problem);
      }
      patterns.add(pattern);
    }
    patterns.addAll(BUILT_IN_ALLOWED);
    this.filter = ObjectInputFilter.Config.createFilter(String.join(";", patterns) + ";!*");
  }

  /**
   * {@return the rule of {@code allow} entries ({@code redis.allow}, {@code memcached.allow}): null
   * when {@code pattern} is one valid {@code ObjectInputFilter} class pattern that does not allow
   * every class, else what is wrong}
   *
   * @param pattern the entry as written, e.g. {@code com.example.*}
   */
  public static String allowProblem(String pattern) {
    if (pattern == null) {
      return "must not be null";
    }
    String p = pattern.startsWith("!") ? pattern.substring(1) : pattern;
    if (p.equals("*") || p.equals("**") || p.endsWith("/*") || p.equals(".*")) {
      return "allows every class, was "
          + Quotes.quote(pattern)
          + "; name packages (com.example.*) or classes";
    }
    if (!CLASS_PATTERN.matcher(pattern).matches()) {
      return "must be one class pattern like com.example.* or com.example.Order, was "
          + Quotes.quote(pattern);
    }
    try {
      ObjectInputFilter.Config.createFilter(pattern);
      return null;
    } catch (IllegalArgumentException e) {
      return "is not a valid ObjectInputFilter pattern, was " + Quotes.quote(pattern);
    }
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
    BoundedFilter bounded = new BoundedFilter(filter, bytes.length);
    try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes))) {
      in.setObjectInputFilter(bounded);
      return in.readObject();
    } catch (InvalidClassException e) {
      if (bounded.refusedClass != null) {
        throw new CodecException(
            "class " + bounded.refusedClass + " is not allowed by " + allowKey,
            bounded.refusedClass,
            null);
      }
      if (bounded.limit != null) {
        throw new CodecException("value refused: " + bounded.limit, null);
      }
      throw new CodecException("cannot deserialize value: " + e.getMessage(), e);
    } catch (IOException
        | ClassNotFoundException
        | RuntimeException
        | LinkageError
        | StackOverflowError e) {
      // a stored value must never break the caller, whatever its bytes
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

  /**
   * The allow-list, and bounds that no stream of {@code size} bytes can legitimately exceed: an
   * array of {@code n} elements takes at least {@code n} bytes ({@code 8n} for {@code long[]}), so
   * a 27-byte value that claims 100,000,000 elements is refused before anything is allocated; the
   * same for references and bytes read; a depth of {@value #MAX_DEPTH}, and {@value
   * #MAX_HASHED_DEPTH} for hash sets and maps. Remembers what it refused, for the log line (the
   * JDK's message is vaguer).
   */
  private static final class BoundedFilter implements ObjectInputFilter {
    private final ObjectInputFilter allowList;
    private final long size;
    private String refusedClass;
    private String limit;
    private boolean hashed; // a hash set or map was read

    BoundedFilter(ObjectInputFilter allowList, long size) {
      this.allowList = allowList;
      this.size = size;
    }

    @Override
    public Status checkInput(FilterInfo info) {
      String exceeded = exceeded(info);
      if (exceeded != null) {
        limit = exceeded;
        return Status.REJECTED;
      }
      Status status = allowList.checkInput(info);
      if (status == Status.REJECTED && refusedClass == null) {
        Class<?> c = info.serialClass();
        while (c != null && c.isArray()) {
          c = c.getComponentType();
        }
        refusedClass = c != null ? c.getName() : null;
      }
      return status;
    }

    private String exceeded(FilterInfo info) {
      if (info.depth() > MAX_DEPTH) {
        return "nested deeper than " + MAX_DEPTH + " levels";
      }
      // the filter sees a class once (later objects of it come as references), so once a hash set
      // or map is in the value, the whole value is held to the shallower depth
      hashed |= isHashed(info.serialClass());
      if (hashed && info.depth() > MAX_HASHED_DEPTH) {
        return "nested deeper than "
            + MAX_HASHED_DEPTH
            + " levels in a value holding a hash set or map";
      }
      if (info.references() > size || info.streamBytes() > size) {
        return "more references than a value of " + size + " bytes can hold";
      }
      long length = info.arrayLength();
      if (length > 0) {
        Class<?> array = info.serialClass();
        long least = length * elementBytes(array == null ? null : array.getComponentType());
        if (least > size || least < 0) {
          return "an array of " + length + " elements in a value of " + size + " bytes";
        }
      }
      return null;
    }

    /**
     * Whether reading the class hashes its elements: a hash set or map (and a {@code Hashtable}),
     * whose {@code readObject} calls {@code hashCode} on each element, all the way down.
     */
    private static boolean isHashed(Class<?> c) {
      return c != null
          && (java.util.HashMap.class.isAssignableFrom(c)
              || java.util.HashSet.class.isAssignableFrom(c)
              || java.util.Hashtable.class.isAssignableFrom(c)
              || java.util.concurrent.ConcurrentHashMap.class.isAssignableFrom(c));
    }

    /** The fewest bytes one element takes in the stream. */
    private static long elementBytes(Class<?> component) {
      if (component == long.class || component == double.class) {
        return 8;
      } else if (component == int.class || component == float.class) {
        return 4;
      } else if (component == short.class || component == char.class) {
        return 2;
      }
      return 1; // byte, boolean, and a reference (at least a one-byte null or back reference)
    }
  }
}
