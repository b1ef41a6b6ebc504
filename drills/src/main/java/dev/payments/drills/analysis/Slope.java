package dev.payments.drills.analysis;

import java.util.List;

/**
 * The least-squares line through a series of (seconds, value) points: its slope per hour, the mean, and how many
 * points it saw. "Flat" is judged against a tolerance by the caller (the soak drill).
 */
public record Slope(double perHour, double mean, int points) {

    /** One sample: drill time in seconds and the value then. */
    public record Point(double seconds, double value) {
    }

    /** The slope of the points whose time is at or after {@code fromSeconds}; NaN slope with fewer than 3 points. */
    public static Slope of(List<Point> points, double fromSeconds) {
        List<Point> window = points.stream().filter(p -> p.seconds() >= fromSeconds && Double.isFinite(p.value()))
                .toList();
        int n = window.size();
        if (n == 0) {
            return new Slope(Double.NaN, Double.NaN, 0);
        }
        double meanT = window.stream().mapToDouble(Point::seconds).average().orElse(0);
        double meanV = window.stream().mapToDouble(Point::value).average().orElse(0);
        if (n < 3) {
            return new Slope(Double.NaN, meanV, n);
        }
        double covariance = 0;
        double variance = 0;
        for (Point p : window) {
            covariance += (p.seconds() - meanT) * (p.value() - meanV);
            variance += (p.seconds() - meanT) * (p.seconds() - meanT);
        }
        return new Slope(variance == 0 ? Double.NaN : covariance / variance * 3600, meanV, n);
    }

    /**
     * Flat: the line rises at most {@code relative} of the mean per hour or at most {@code absolute} per hour,
     * whichever is more lenient (a tiny table may double without mattering; a big heap may not grow by 10 %).
     * A falling line is flat.
     */
    public boolean flat(double relative, double absolute) {
        if (Double.isNaN(perHour)) {
            return false;
        }
        return perHour <= Math.max(relative * Math.abs(mean), absolute);
    }
}
