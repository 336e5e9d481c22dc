package io.chanledger.api.config;

import java.util.List;

/** Settings that still hold a placeholder nothing resolved: one line each, naming it and its variable. */
public class UnresolvedPlaceholderException extends IllegalStateException {

    private final List<String> lines;

    UnresolvedPlaceholderException(List<String> lines) {
        super(String.join(" ", lines));
        this.lines = List.copyOf(lines);
    }

    List<String> lines() {
        return lines;
    }
}
