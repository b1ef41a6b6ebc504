/** Idempotency-Key records: the first answer per key, replayed byte for byte, with concurrent duplicates waiting for it. */
package dev.payments.pgsim.idempotency;
