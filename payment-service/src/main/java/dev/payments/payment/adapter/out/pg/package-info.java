/** The Toss-like PG over HTTP, and the resilience chain around it (bulkhead, breaker, retry, timeouts). */
package dev.payments.payment.adapter.out.pg;
