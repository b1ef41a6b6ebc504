/**
 * Scheduled entry points: the renewal run's cron trigger, and housekeeping jobs that run once per cycle across
 * replicas.
 */
package dev.payments.payment.adapter.in.schedule;
