/** What the drill watches while it runs: payment-service's metrics, the breaker, consumer lag, the books afterwards. */
package dev.payments.drills.observe;
