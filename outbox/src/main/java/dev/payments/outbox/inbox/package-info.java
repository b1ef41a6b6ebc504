/** Idempotent consumption: each event applied once, in the transaction of its effect; poison to dead-letter topics. */
package dev.payments.outbox.inbox;
