package io.github.chash.ring;

import java.util.function.ToLongFunction;

/** A {@link HashFunction} made of a name, a width and a function; immutable. */
final class NamedHash implements HashFunction {
  private final String name;
  private final int bits;
  private final ToLongFunction<CharSequence> function;

  NamedHash(String name, int bits, ToLongFunction<CharSequence> function) {
    this.name = name;
    this.bits = bits;
    this.function = function;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int bits() {
    return bits;
  }

  @Override
  public long hash(CharSequence key) {
    return function.applyAsLong(key);
  }

  @Override
  public String toString() {
    return name;
  }
}
