/**
 * The chash Maven plugin (prefix {@code chash}): goals {@code validate}, {@code report}, {@code
 * check}, {@code locate}, {@code help}, and the site report "Key distribution". The mojos are thin;
 * the work is done by {@link io.github.chash.analysis.DistributionAnalysis} and the writers here.
 */
package io.github.chash.maven;
