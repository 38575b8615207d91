package io.github.chash.internal.cache;

/**
 * Internal: a value its caller encoded itself (the Spring starter's JSON), which a remote node
 * stores as these bytes whatever its codec, and returns as them to a caller expecting this type, so
 * that the stored bytes are the caller's format and no wrapper of the codec's (JDK serialization
 * would wrap them in a {@code byte[]}'s serial form, Jackson in a base64 string). The caller
 * decodes them and decides what class they become: the bytes choose none.
 *
 * @param bytes the encoded value; not copied, and not to be changed once handed over
 */
public record EncodedValue(byte[] bytes) {}
