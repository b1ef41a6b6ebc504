package dev.payments.drills.observe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadGroupsTest {

    /** Titles as PostgreSQL 17 sets them, read off a drill's stack with ps. */
    @Test
    void postgresProcessesAreGroupedByWhatTheyWorkFor() {
        assertThat(ThreadGroups.ofPostgresProcess("postgres: payments payments 127.0.0.1(33792) idle"))
                .isEqualTo("backends payments");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: reconciliation reconciliation 127.0.0.1(40862) idle in transaction"))
                .isEqualTo("backends reconciliation");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: walsender payments payments 127.0.0.1(33952) START_REPLICATION"))
                .isEqualTo("walsender payments");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: checkpointer")).isEqualTo("background");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: background writer")).isEqualTo("background");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: walwriter")).isEqualTo("background");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: autovacuum worker orders")).isEqualTo("background");
        assertThat(ThreadGroups.ofPostgresProcess("postgres: logical replication launcher")).isEqualTo("background");
        assertThat(ThreadGroups.ofPostgresProcess("/tmp/embedded-pg/bin/postgres -D /tmp/data")).isEqualTo(ThreadGroups.OTHER);
    }
}
