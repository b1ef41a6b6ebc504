/** Wiring: properties, the resilience chain, the use cases. */
package dev.payments.payment.config;
