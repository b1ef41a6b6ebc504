package dev.payments.drills.scenario;

import java.util.List;

/**
 * One of field report 000's broken structures to run the same scenario against, beside ours ({@code drills/baseline}).
 *
 * @param structure  the baseline's {@code baseline.structure}: {@code in-tx} or {@code after-commit}
 * @param label      its column in the comparison
 * @param springArgs the scenario's settings that apply to it too (the pool)
 */
public record BaselineStructure(String structure, String label, List<String> springArgs) {

    public static final String IN_TX = "in-tx";
    public static final String AFTER_COMMIT = "after-commit";
}
