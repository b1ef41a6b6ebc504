/** reconciliation-service: its own record of every order and payment, from both topics, and what it repairs on it. */
package dev.payments.reconciliation;
