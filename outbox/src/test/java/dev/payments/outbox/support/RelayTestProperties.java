package dev.payments.outbox.support;

import dev.payments.outbox.config.OutboxProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.HashMap;
import java.util.Map;

/**
 * {@link OutboxProperties} as Spring binds them: the production defaults, then test timings, then the caller's
 * {@code outbox.*} overrides. No test repeats the record's constructor.
 */
public final class RelayTestProperties {

    /** Short enough for tests, the same shape as production: offsets, heartbeats and standby retries every 500 ms. */
    private static final Map<String, String> TEST_TIMINGS = Map.of(
            "outbox.relay.offset-flush-interval", "500ms",
            "outbox.relay.heartbeat-interval", "500ms",
            "outbox.relay.standby-retry", "500ms",
            "outbox.relay.restart-backoff", "500ms",
            "outbox.relay.slot-check-interval", "1s",
            "outbox.relay.watermark-interval", "200ms");

    private RelayTestProperties() {
    }

    public static OutboxProperties forDatabase(String database, Map<String, String> overrides) {
        return bind(database, TEST_TIMINGS, overrides);
    }

    /** Production defaults, for benchmarks: only the names are the database's. */
    public static OutboxProperties production(String database, Map<String, String> overrides) {
        return bind(database, Map.of(), overrides);
    }

    private static OutboxProperties bind(String database, Map<String, String> timings, Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>(timings);
        values.put("outbox.relay.slot-name", "outbox_" + database);
        values.put("outbox.relay.offset-topic", "_outbox-offsets." + database);
        values.putAll(overrides);
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("outbox", OutboxProperties.class);
    }
}
