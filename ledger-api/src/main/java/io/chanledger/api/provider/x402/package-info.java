/**
 * x402 at the provider, provider role (declared by {@code io.chanledger.api.provider}): the wire of
 * x402's {@code exact} scheme on EVM (v2 headers and the v1 ones), and the provider's own
 * facilitator, which verifies an EIP-3009 {@code TransferWithAuthorization}, reserves it once per
 * (payer, nonce) and settles it with the provider's wallet. The gateway sells through
 * {@link io.chanledger.api.provider.x402.X402Settlement}; the facts the code relies on are in
 * docs/protocol.md, section F.
 */
package io.chanledger.api.provider.x402;
