/** The read API's use cases: one payment, one order with its payments, the books summarised. */
package dev.payments.reconciliation.application.queries;
