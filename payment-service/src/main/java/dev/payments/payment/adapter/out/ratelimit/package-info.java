/** The per-member approval rate limit, shared by every replica: Bucket4j token buckets in the service's PostgreSQL. */
package dev.payments.payment.adapter.out.ratelimit;
