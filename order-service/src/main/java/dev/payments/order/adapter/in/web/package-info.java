/** The order HTTP API and its RFC 9457 problem responses. */
package dev.payments.order.adapter.in.web;
