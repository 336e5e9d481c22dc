package io.chanledger.api.marketplace.skills;

import java.util.List;

/** A skill document that cannot be accepted; {@code problems} lists every reason found. */
class InvalidSkillException extends Exception {

    private final List<String> problems;

    InvalidSkillException(List<String> problems) {
        super(problems.size() == 1 ? problems.getFirst()
                : problems.size() + " problems: " + String.join("; ", problems), null, false, false);
        this.problems = List.copyOf(problems);
    }

    List<String> problems() {
        return problems;
    }
}
