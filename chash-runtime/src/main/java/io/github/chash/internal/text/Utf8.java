package io.github.chash.internal.text;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8: bytes that are not valid UTF-8 are an error, never decoded with replacement
 * characters (which would turn a broken file or value into a different, valid-looking one).
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
}
