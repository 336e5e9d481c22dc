package io.chanledger.domain.provider;

/**
 * What a provider tells agents and people about itself besides its API, given at registration:
 * its logo and website (http or https URLs) and whether it streams answers. Every member may be
 * null (not given; and for providers registered before these were asked).
 */
public record ProviderProfile(String logoUrl, String website, Boolean supportsStreaming) {

    public static final ProviderProfile NONE = new ProviderProfile(null, null, null);
}
