/**
 * Failure drills: each field report (docs/field-reports.md) reproduced against the whole system, measured and reported.
 */
package dev.payments.drills;
