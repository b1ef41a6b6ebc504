/** RFC 9457 problem responses with a stable {@code code}, shared by every service's HTTP API. */
package dev.payments.support.web;
