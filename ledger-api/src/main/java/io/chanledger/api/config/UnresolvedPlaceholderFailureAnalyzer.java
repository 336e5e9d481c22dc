package io.chanledger.api.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a setting left with an unresolved placeholder as a refused start, not as a stack trace. */
public class UnresolvedPlaceholderFailureAnalyzer extends AbstractFailureAnalyzer<UnresolvedPlaceholderException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnresolvedPlaceholderException cause) {
        return new FailureAnalysis(String.join(System.lineSeparator(), cause.lines()),
                "Set the variables named above in the service's environment (for systemd, its EnvironmentFile).",
                cause);
    }
}
