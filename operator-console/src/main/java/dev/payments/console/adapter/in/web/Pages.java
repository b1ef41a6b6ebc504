package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.ApiProblem;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.util.UUID;
import java.util.regex.Pattern;

/** What the pages share: the sign-in registration's name, id checks, and how an action's answer is carried over. */
final class Pages {

    static final String REGISTRATION = "payments";
    /** The services' rule for free text (no control characters, so nothing typed can forge a log line there). */
    private static final Pattern PRINTABLE = Pattern.compile("[^\\p{Cntrl}]*");
    static final int MAX_TEXT = 2000;

    private Pages() {
    }

    /** An id typed or clicked by the operator: a UUID or a clear refusal, before any service is called. */
    static UUID id(String value, String what) {
        try {
            return UUID.fromString(value.trim());
        } catch (IllegalArgumentException | NullPointerException notAnId) {
            throw new BadInput(what + " must be a UUID");
        }
    }

    /** A required reason or comment: present, one line, bounded (as the services themselves require). */
    static String requiredText(String value, String what) {
        String text = value == null ? "" : value.trim();
        if (text.isEmpty()) {
            throw new BadInput(what + " is required");
        }
        if (text.length() > MAX_TEXT || !PRINTABLE.matcher(text).matches()) {
            throw new BadInput(what + " must be one line of at most " + MAX_TEXT + " characters");
        }
        return text;
    }

    /** Input the console refuses before calling any service (the services would refuse it too). */
    static final class BadInput extends RuntimeException {
        BadInput(String message) {
            super(message);
        }
    }

    /** The problem an action met, shown on the page the operator returns to. */
    static void refused(RedirectAttributes next, ApiProblem problem) {
        next.addFlashAttribute("problem", problem);
    }
}
