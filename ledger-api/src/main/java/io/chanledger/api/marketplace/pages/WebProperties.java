package io.chanledger.api.marketplace.pages;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the web pages.
 *
 * @param explorerTxUrl block explorer address of a transaction, with {@code {txHash}} where its hash
 *                      goes; the channel page links every chain ref there
 */
@ConfigurationProperties("chan.web")
record WebProperties(@DefaultValue("https://polygonscan.com/tx/{txHash}") String explorerTxUrl) {
}
