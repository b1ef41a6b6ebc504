/** The system under drill: a stack the drill starts itself, or one already running, and how to break it. */
package dev.payments.drills.stack;
