/** The per-member approval rate limit, in memory per replica (Bucket4j). */
package dev.payments.payment.adapter.out.ratelimit;
