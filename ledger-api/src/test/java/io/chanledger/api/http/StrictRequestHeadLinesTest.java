package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The reading of a request head's lines, on heads as Tomcat leaves them in its buffer. */
class StrictRequestHeadLinesTest {

    /** The head read from its request target, as the valve reads it. */
    private static StrictRequestHead.HeadLines read(String head) {
        byte[] buffer = (head + "{\"body\":\n1}").getBytes(StandardCharsets.ISO_8859_1);
        return StrictRequestHead.readLines(buffer, head.indexOf('/'));
    }

    @Test
    void aHeadOfCrLfLinesHasNoFault() {
        StrictRequestHead.HeadLines lines = read("POST /api/x HTTP/1.1\r\nhost: a\r\nauthorization: Bearer t\r\n\r\n");

        assertThat(lines.fault()).isNull();
        assertThat(lines.paddedCredentials()).isEmpty();
    }

    @Test
    void aBareLineFeedAnywhereInTheHeadIsAFault() {
        assertThat(read("GET /a HTTP/1.1\nhost: a\r\n\r\n").fault()).contains("LF without CR");
        assertThat(read("GET /a HTTP/1.1\r\nhost: a\n\r\n").fault()).contains("LF without CR");
        assertThat(read("GET /a HTTP/1.1\r\nhost: a\r\n\n").fault()).contains("LF without CR");
        assertThat(read("GET /a HTTP/1.1\r\nhost: a\rb\r\n\r\n").fault()).contains("CR");
    }

    @Test
    void onlyCredentialHeadersWithWhiteSpaceBeforeTheLineEndAreNamed() {
        StrictRequestHead.HeadLines lines = read("GET /a HTTP/1.1\r\nauthorization: Bearer t \r\n"
                + "x-chan-auth-nonce: abcdefgh\t\r\nx-other: padded \r\nx-chan-auth-address: 0x12\r\n\r\n");

        assertThat(lines.fault()).isNull();
        assertThat(lines.paddedCredentials()).containsExactlyInAnyOrder("authorization", "x-chan-auth-nonce");
    }
}
