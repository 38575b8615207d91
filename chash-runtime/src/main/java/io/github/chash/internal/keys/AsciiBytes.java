package io.github.chash.internal.keys;

/**
 * A routing key that can hand out its chars as bytes when they are all ASCII (so they are its UTF-8
 * bytes, and its {@link KeyBytes}): a hash over UTF-8 then reads that array in place instead of the
 * key char by char through {@link CharSequence#charAt}, which on the hit path costs more than the
 * hash itself.
 */
public interface AsciiBytes extends CharSequence {
  /**
   * {@return the key's chars as bytes in {@code [0, length())}, when every char is below 0x80; or
   * null} The array is the key's own: read it during the call that got it, never write or keep it.
   */
  byte[] asciiBytes();
}
