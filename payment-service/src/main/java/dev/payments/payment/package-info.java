/** payment-service: approves card payments through the PG and never loses or doubles a charge. */
package dev.payments.payment;
