/** The load: orders placed beforehand, approvals sent closed-loop (fixed concurrency) or open-loop (arrival rate). */
package dev.payments.drills.load;
