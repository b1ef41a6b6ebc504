/** reconciliation-service: its own record of what happened to every order and payment, built from both event topics. */
package dev.payments.reconciliation;
