package io.github.chash.internal.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8: bytes that are not valid UTF-8 are an error, never decoded with replacement
 * characters (which would turn a broken file or value into a different, valid-looking one); text
 * UTF-8 cannot hold (an unpaired surrogate) is an error, never encoded as {@code ?} (which would
 * read back as another string).
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * {@return the text the bytes hold}
   *
   * @param bytes UTF-8 bytes
   * @throws CharacterCodingException if they are not valid UTF-8
   */
  public static String decodeStrictly(byte[] bytes) throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
  }

  /**
   * {@return the text's UTF-8 bytes}
   *
   * @param text the text
   * @throws CharacterCodingException if it has an unpaired surrogate, which UTF-8 cannot encode
   */
  public static byte[] encodeStrictly(String text) throws CharacterCodingException {
    if (!hasSurrogate(text)) {
      return text.getBytes(StandardCharsets.UTF_8); // the JDK's fast path: nothing to replace
    }
    ByteBuffer bytes =
        StandardCharsets.UTF_8
            .newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .encode(CharBuffer.wrap(text));
    byte[] out = new byte[bytes.remaining()];
    bytes.get(out);
    return out;
  }

  /**
   * Whether the text has a surrogate, paired or not: the only chars {@code getBytes} may replace.
   */
  private static boolean hasSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isSurrogate(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
