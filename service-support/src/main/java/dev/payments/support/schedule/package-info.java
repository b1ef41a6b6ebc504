/** Scheduled jobs that run once per cycle however many replicas a service has: a ShedLock row in its own database. */
package dev.payments.support.schedule;
