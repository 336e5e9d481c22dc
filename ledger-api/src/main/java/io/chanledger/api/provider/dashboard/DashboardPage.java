package io.chanledger.api.provider.dashboard;

import io.chanledger.api.http.BuiltPage;
import io.chanledger.api.http.NotFoundPage;
import io.swagger.v3.oas.annotations.Hidden;
import java.time.Duration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The provider's dashboard page at {@code /dashboard}, and its hashed assets under
 * {@code /dashboard/assets/}. It is a build of its own ({@code web/dashboard.html}, packaged in
 * {@code provider-pages/}, outside the marketplace's static resources), so a marketplace never
 * serves it and it calls only this provider's API: the signing information and
 * {@code /api/provider/dashboard}. A browser at an address of a provider's server that is no
 * resource ({@code /} included: a provider serves no marketplace) gets the provider's home page, a
 * page of the same build without script that points to the dashboard and to the documents agents
 * read.
 */
@Hidden
@Controller
@Order(Ordered.LOWEST_PRECEDENCE)
class DashboardPage implements WebMvcConfigurer, NotFoundPage {

    static final String PAGE = "provider-pages/dashboard.html";
    static final String HOME = "provider-pages/provider-home.html";
    static final String ASSETS = "classpath:/provider-pages/assets/";

    /**
     * Scripts, styles and requests from this service only (the page reads nothing elsewhere);
     * never framed, so a wallet prompt cannot be clickjacked.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

    private final BuiltPage page = BuiltPage.load(PAGE, CONTENT_SECURITY_POLICY, "The dashboard page is");
    private final BuiltPage home = BuiltPage.load(HOME, CONTENT_SECURITY_POLICY, "The provider's home page is");

    @GetMapping("/dashboard")
    ResponseEntity<byte[]> dashboard() {
        return page.response();
    }

    @Override
    public ResponseEntity<byte[]> notFound() {
        return home.response(HttpStatus.NOT_FOUND);
    }

    /** Vite puts a content hash in every asset's name, so browsers may keep them for a year. */
    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/dashboard/assets/**")
                .addResourceLocations(ASSETS)
                .setCacheControl(CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable());
    }
}
