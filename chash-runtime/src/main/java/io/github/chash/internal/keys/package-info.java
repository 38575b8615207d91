/**
 * Internal: the key-expression grammar shared by the aspect (which compiles expressions at run
 * time) and the Maven plugin (which checks them at build time), so both accept the same text and
 * report the same errors at the same positions. Public only so those two modules can reach it; not
 * part of the API, it may change in any release.
 */
package io.github.chash.internal.keys;
