/**
 * Nothing of its own: this module's classes are it-aspect-sample's, woven by ajc. (The file exists
 * because aspectj-maven-plugin skips a module without sources, weave dependencies or not.)
 */
package io.github.chash.it.aspect.ctw;
