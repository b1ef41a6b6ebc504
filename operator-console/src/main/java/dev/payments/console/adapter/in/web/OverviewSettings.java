package dev.payments.console.adapter.in.web;

import java.time.Duration;
import java.util.List;

/**
 * @param deadLetterGroups the consumer groups whose waiting dead letters the overview counts
 * @param refresh          how often the overview reloads itself
 */
public record OverviewSettings(List<String> deadLetterGroups, Duration refresh) {

    public OverviewSettings {
        deadLetterGroups = List.copyOf(deadLetterGroups);
    }
}
