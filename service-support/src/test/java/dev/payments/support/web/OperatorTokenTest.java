package dev.payments.support.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorTokenTest {

    private final OperatorToken token = new OperatorToken("s3cret");

    @Test
    void admitsOnlyTheTokenItself() {
        assertThat(token.admits("s3cret")).isTrue();
        assertThat(token.admits("s3cre")).isFalse();
        assertThat(token.admits("s3cret ")).isFalse();
        assertThat(token.admits("")).isFalse();
        assertThat(token.admits(null)).isFalse();
    }
}
