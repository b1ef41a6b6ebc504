/** Retention: every table that grows with traffic loses its expired rows in bounded batches, once per cycle across replicas. */
package dev.payments.support.retention;
