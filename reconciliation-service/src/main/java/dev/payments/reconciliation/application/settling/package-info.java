/** The settle cycle: unresolved payments handed to payment-service's sync, overdue ones escalated; its ports. */
package dev.payments.reconciliation.application.settling;
