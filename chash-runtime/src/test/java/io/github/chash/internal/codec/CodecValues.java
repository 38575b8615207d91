package io.github.chash.internal.codec;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;

/** Value types for codec tests: records, as services return them. */
public final class CodecValues {
  private CodecValues() {}

  public record Line(String sku, int quantity) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  public record Order(long id, String customer, BigDecimal total, List<Line> lines)
      implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** Stands for a gadget: if deserialization ever ran its code, {@link #constructed} would flip. */
  public static final class Gadget implements Serializable {
    private static final long serialVersionUID = 1L;
    static volatile boolean constructed;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      constructed = true;
    }
  }
}
