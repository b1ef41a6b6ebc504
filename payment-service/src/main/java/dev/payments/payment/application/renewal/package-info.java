/** Subscriptions and the renewal run: the use cases and the ports they need. */
package dev.payments.payment.application.renewal;
