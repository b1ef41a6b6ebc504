/** Wiring, one configuration per capability plus the shared clock and token; the properties, validated at start-up. */
package dev.payments.reconciliation.config;
