package dev.payments.console.adapter.in.web;

import java.time.Duration;

/** An age as an operator reads it at a glance: 42 s, 7 min, 3 h 5 min, 2 d 4 h. */
final class Ages {

    private Ages() {
    }

    static String of(Duration age) {
        long seconds = Math.max(0, age.toSeconds());
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min";
        }
        if (seconds < 86_400) {
            return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
        }
        return seconds / 86_400 + " d " + seconds % 86_400 / 3600 + " h";
    }
}
