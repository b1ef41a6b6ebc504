/** Payments and the states their money can be in; no Spring, no SQL. */
package dev.payments.payment.domain;
