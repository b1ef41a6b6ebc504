/** The HTTP API: confirm, read, operator sync, PG callbacks; errors as RFC 9457 problem+json with a stable code. */
package dev.payments.payment.adapter.in.web;
