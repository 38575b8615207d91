/** A sample service using the chash annotations, and the proof that a weaving mode works. */
package io.github.chash.it.aspect;
