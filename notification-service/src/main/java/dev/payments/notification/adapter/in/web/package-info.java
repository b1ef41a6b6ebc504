/** The notification HTTP API and its RFC 9457 problem responses. */
package dev.payments.notification.adapter.in.web;
