/** Wiring of the use cases and this service's configuration properties. */
package dev.payments.reconciliation.config;
