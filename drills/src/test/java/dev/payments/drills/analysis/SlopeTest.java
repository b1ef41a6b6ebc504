package dev.payments.drills.analysis;

import dev.payments.drills.analysis.Slope.Point;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SlopeTest {

    /** One point a minute for {@code minutes}, value = base + perHour x hours + a wobble of +-wobble. */
    private static List<Point> series(int minutes, double base, double perHour, double wobble) {
        List<Point> points = new ArrayList<>();
        for (int m = 0; m <= minutes; m++) {
            points.add(new Point(m * 60.0, base + perHour * m / 60.0 + (m % 2 == 0 ? wobble : -wobble)));
        }
        return points;
    }

    @Test
    void theSlopeIsPerHourOverTheWindowOnly() {
        List<Point> points = new ArrayList<>(series(20, 0, 600, 0));   // warm-up: +600/h for 20 min
        double top = points.get(points.size() - 1).value();
        for (int m = 21; m <= 60; m++) {
            points.add(new Point(m * 60.0, top + (m % 2 == 0 ? 1 : -1)));   // then flat
        }

        assertThat(Slope.of(points, 0).perHour()).isGreaterThan(100);
        Slope last40 = Slope.of(points, 20 * 60);
        assertThat(last40.perHour()).isCloseTo(0, within(5.0));
        assertThat(last40.points()).isEqualTo(41);
        assertThat(last40.flat(0.10, 1)).isTrue();
    }

    @Test
    void aLeakIsNotFlatAndAFallingLineIs() {
        assertThat(Slope.of(series(60, 200, 50, 2), 0).perHour()).isCloseTo(50, within(0.5));
        assertThat(Slope.of(series(60, 200, 50, 2), 0).flat(0.10, 8)).as("50 MB/h on a 200 MB heap").isFalse();
        assertThat(Slope.of(series(60, 200, 5, 2), 0).flat(0.10, 8)).as("5 MB/h").isTrue();
        assertThat(Slope.of(series(60, 200, -40, 2), 0).flat(0.10, 8)).isTrue();
    }

    @Test
    void tooFewPointsSayNothing() {
        Slope two = Slope.of(series(1, 5, 10, 0), 0);
        assertThat(two.perHour()).isNaN();
        assertThat(two.flat(1, 1)).isFalse();
    }
}
