/** HTTP client of payment-service's operator sync API, which asks the PG and settles a payment. */
package dev.payments.reconciliation.adapter.out.payment;
