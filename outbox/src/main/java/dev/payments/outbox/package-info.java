/** Appending domain events to the outbox table inside the caller's transaction. */
package dev.payments.outbox;
