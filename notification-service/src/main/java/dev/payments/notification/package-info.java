/** notification-service: what customers are told about their payments, and its delivery. */
package dev.payments.notification;
