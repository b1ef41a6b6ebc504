package dev.payments.outbox.inbox;

import java.util.Arrays;
import java.util.Set;

/**
 * The exceptions with which a service's effects refuse an event for good, e.g. an illegal transition of its
 * aggregate: an event that raised one goes to the dead-letter topic at once instead of being retried. A service
 * declares its own as a bean in its configuration; the library keeps the domain free of any marker type.
 *
 * @param exceptions exception types (subclasses included) that mean "this event can never be applied here"
 */
public record InapplicableEvents(Set<Class<? extends Throwable>> exceptions) {

    public InapplicableEvents {
        exceptions = Set.copyOf(exceptions);
    }

    @SafeVarargs
    public static InapplicableEvents signalledBy(Class<? extends Throwable>... exceptions) {
        return new InapplicableEvents(Set.copyOf(Arrays.asList(exceptions)));
    }
}
