package io.chanledger.api.config;

import java.util.List;
import java.util.stream.Collectors;

/** A secret setting was given on the command line; the message names it and where to put it instead. */
public class SecretOnCommandLineException extends IllegalStateException {

    private final List<SecretSettingSources.Secret> secrets;

    SecretOnCommandLineException(List<SecretSettingSources.Secret> secrets) {
        super(problem(secrets) + " " + secrets.stream()
                .map(secret -> "For " + secret.property() + ", " + secret.advice() + ".")
                .collect(Collectors.joining(" ")));
        this.secrets = List.copyOf(secrets);
    }

    private static String problem(List<SecretSettingSources.Secret> secrets) {
        boolean one = secrets.size() == 1;
        return secrets.stream().map(SecretSettingSources.Secret::property).collect(Collectors.joining(", "))
                + (one ? " is a secret and was" : " are secrets and were")
                + " given on the command line (--name=... or -Dname=...), where every user of this machine can"
                + " read " + (one ? "it" : "them") + " in the process list.";
    }

    String problem() {
        return problem(secrets);
    }

    List<SecretSettingSources.Secret> secrets() {
        return secrets;
    }
}
