package dev.payments.support.web.overload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SojournSheddingTest {

    private static final long MS = 1_000_000;

    private final SojournShedding shedding = new SojournShedding(100 * MS, 500 * MS, 0);

    @Test
    void aQueueThatDrainsWithinTheIntervalShedsNothing() {
        // A burst: the first of the interval started at once, the last waited 900 ms.
        for (long wait = 0; wait <= 900; wait += 100) {
            assertThat(shedding.shed(wait * MS, (100 + wait / 10) * MS)).isFalse();
        }
        assertThat(shedding.shed(950 * MS, 520 * MS)).as("the interval before had a short wait").isFalse();
        assertThat(shedding.standing()).isFalse();
    }

    @Test
    void aQueueThatStandsAWholeIntervalShedsWhatWaitedLongerThanTheTarget() {
        assertThat(shedding.shed(300 * MS, 100 * MS)).isFalse();
        assertThat(shedding.shed(150 * MS, 400 * MS)).isFalse();

        assertThat(shedding.shed(400 * MS, 510 * MS)).as("every wait of the last interval was over 100 ms").isTrue();
        assertThat(shedding.standing()).isTrue();
        assertThat(shedding.shed(80 * MS, 520 * MS)).as("a request that waited less than the target passes").isFalse();
    }

    @Test
    void sheddingStopsOnceAnIntervalHadAShortWait() {
        shedding.shed(300 * MS, 100 * MS);
        assertThat(shedding.shed(300 * MS, 510 * MS)).isTrue();
        shedding.shed(20 * MS, 600 * MS);

        assertThat(shedding.shed(300 * MS, 1020 * MS)).isFalse();
        assertThat(shedding.standing()).isFalse();
    }

    @Test
    void aWholeIntervalWithoutRequestsIsNoQueue() {
        shedding.shed(300 * MS, 100 * MS);
        assertThat(shedding.shed(300 * MS, 510 * MS)).isTrue();

        assertThat(shedding.shed(300 * MS, 1020 * MS)).as("510-1010 had only long waits").isTrue();
        // Nothing arrived from 1020 ms until 3000 ms: more than an interval without a queue.
        assertThat(shedding.shed(300 * MS, 3000 * MS)).isFalse();
        assertThat(shedding.standing()).isFalse();
    }
}
