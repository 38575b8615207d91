/**
 * Micrometer meters and Observations of chash's sharded caches: {@link
 * io.github.chash.micrometer.MicrometerCacheRecorder} (timers and Observations, given to the
 * manager's builder) and {@link io.github.chash.micrometer.ChashMeterBinder} (counters and gauges
 * read from the manager's stats).
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so;
 * a null anywhere else is a caller's bug and fails with {@link java.lang.NullPointerException}.
 */
package io.github.chash.micrometer;
