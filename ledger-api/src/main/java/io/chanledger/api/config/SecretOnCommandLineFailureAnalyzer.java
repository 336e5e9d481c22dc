package io.chanledger.api.config;

import java.util.stream.Collectors;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a secret on the command line as a refused start saying what to do, not as a stack trace. */
public class SecretOnCommandLineFailureAnalyzer extends AbstractFailureAnalyzer<SecretOnCommandLineException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SecretOnCommandLineException cause) {
        String action = cause.secrets().stream()
                .map(secret -> "Remove " + secret.property() + " from the command line and " + secret.advice() + ".")
                .collect(Collectors.joining(System.lineSeparator()));
        return new FailureAnalysis(cause.problem(), action, cause);
    }
}
