package io.github.chash.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script and its SHA-1, the name {@code EVALSHA} calls it by once the server has it: the
 * script's text travels only on the first call to a server (and again after the server lost its
 * scripts, by a restart or {@code SCRIPT FLUSH}), not on every conditional call.
 *
 * @param text the script
 * @param sha its SHA-1 in lower-case hex, as {@code SCRIPT LOAD} answers it
 */
record LuaScript(String text, String sha) {

  /** {@return the script named by the SHA-1 of its UTF-8 text} */
  static LuaScript of(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      return new LuaScript(text, HexFormat.of().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-1 in this JVM", e); // every JVM must have it
    }
  }
}
