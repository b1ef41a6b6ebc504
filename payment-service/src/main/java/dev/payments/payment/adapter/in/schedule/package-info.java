/** Scheduled entry points: the renewal run's cron trigger. */
package dev.payments.payment.adapter.in.schedule;
