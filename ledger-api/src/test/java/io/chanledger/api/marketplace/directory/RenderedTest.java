package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

class RenderedTest {

    private final Rendered rendered = Rendered.of(new ObjectMapper(), Map.of("a", 1));

    @Test
    void theTagIsAStrongHashOfTheBytes() {
        assertThat(rendered.etag()).matches("\"[A-Za-z0-9_-]{27}\"");
        assertThat(Rendered.of(new ObjectMapper(), Map.of("a", 1)).etag()).isEqualTo(rendered.etag());
        assertThat(Rendered.of(new ObjectMapper(), Map.of("a", 2)).etag()).isNotEqualTo(rendered.etag());
    }

    @Test
    void ifNoneMatchComparesWeaklyAndAcceptsListsAndAStar() {
        assertThat(rendered.matches(rendered.etag())).isTrue();
        assertThat(rendered.matches("W/" + rendered.etag())).isTrue();
        assertThat(rendered.matches("\"x\", " + rendered.etag())).isTrue();
        assertThat(rendered.matches("*")).isTrue();
        assertThat(rendered.matches("\"x\"")).isFalse();
        assertThat(rendered.matches(rendered.etag().replace("\"", ""))).isFalse();
        assertThat(rendered.matches(null)).isFalse();
    }

    @Test
    void aMatchingRequestGets304WithoutABody() {
        ResponseEntity<byte[]> notModified = rendered.respond(rendered.etag(), CacheControl.noCache());
        ResponseEntity<byte[]> full = rendered.respond(null, CacheControl.noCache());

        assertThat(notModified.getStatusCode()).isEqualTo(HttpStatus.NOT_MODIFIED);
        assertThat(notModified.getBody()).isNull();
        assertThat(notModified.getHeaders().getETag()).isEqualTo(rendered.etag());
        assertThat(full.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(full.getBody()).isEqualTo("{\"a\":1}".getBytes());
        assertThat(full.getHeaders().getCacheControl()).isEqualTo("no-cache");
    }
}
