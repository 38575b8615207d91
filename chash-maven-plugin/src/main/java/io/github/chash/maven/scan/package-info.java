/**
 * Checks the chash annotations of compiled classes against {@code chash.yaml} without loading the
 * classes or the aspect: class files are read with ASM.
 */
package io.github.chash.maven.scan;
