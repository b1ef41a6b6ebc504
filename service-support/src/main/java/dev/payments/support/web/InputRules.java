package dev.payments.support.web;

/**
 * What a client may send, the same in every service's request records (docs/security-infrastructure.md, Hostile
 * input). Constants, so they can stand in Bean Validation annotations.
 */
public final class InputRules {

    /**
     * No control characters (CR, LF, NUL, tab, ...) in text a client sends: keys, reasons and names end up in log
     * lines and operator screens, where a CR/LF would forge or split an entry.
     */
    public static final String NO_CONTROL_CHARACTERS = "\\P{Cntrl}*";

    public static final String NO_CONTROL_CHARACTERS_MESSAGE = "must not contain control characters such as CR or LF";

    /**
     * The largest amount of one order or charge, in minor units: one billion won is far above any basket here, and
     * keeps every sum of a day's charges far inside a {@code long}.
     */
    public static final long MAX_AMOUNT = 1_000_000_000L;

    /** The currencies the PG accepts (the simulator books KRW only); an order in another could never be paid. */
    public static final String PG_CURRENCIES = "KRW";

    private InputRules() {
    }
}
