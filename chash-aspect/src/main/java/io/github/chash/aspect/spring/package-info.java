/**
 * Spring wiring of the aspect: the only package of chash-aspect that needs Spring (an optional
 * dependency), so applications without Spring never load it.
 */
package io.github.chash.aspect.spring;
