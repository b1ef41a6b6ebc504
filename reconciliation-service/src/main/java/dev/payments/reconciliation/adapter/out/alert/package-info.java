/** Operator alerts: Micrometer meters, ERROR log lines and the optional incident webhook. */
package dev.payments.reconciliation.adapter.out.alert;
