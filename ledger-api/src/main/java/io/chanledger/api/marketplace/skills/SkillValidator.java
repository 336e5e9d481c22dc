package io.chanledger.api.marketplace.skills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.domain.money.Usdc;
import io.chanledger.domain.provider.ProviderCategory;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a skill before it is accepted. A skill names its providers by role (each with the models
 * it may use and the USDC deposit to open its channel with) and its steps (each run by a role,
 * after the steps listed in {@code after}, with a message payload and, for LLM steps, a template).
 * Placeholders {@code {{step_id}}} in a template or in the message's strings take the output of a
 * step that has run before: a step it depends on, directly or through others. {@code {{user_prompt}}}
 * is the agent's input.
 */
final class SkillValidator {

    static final Pattern SLUG = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    static final int MAX_SLUG_LENGTH = 64;
    static final String USER_PROMPT = "user_prompt";
    private static final Pattern STEP_ID = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final Pattern ROLE = Pattern.compile("[a-z][a-z0-9_-]{0,63}");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
    private static final int MAX_PROVIDERS = 20;
    private static final int MAX_STEPS = 50;

    private SkillValidator() {
    }

    static boolean isSlug(String slug) {
        return slug != null && slug.length() <= MAX_SLUG_LENGTH && SLUG.matcher(slug).matches();
    }

    /** Returns the document as it is stored (with its slug); throws listing every problem. */
    static ObjectNode validate(String slug, JsonNode document) throws InvalidSkillException {
        List<String> problems = new ArrayList<>();
        if (!isSlug(slug)) {
            throw new InvalidSkillException(List.of("slug '" + slug + "' must be lowercase letters and digits "
                    + "separated by single hyphens, at most " + MAX_SLUG_LENGTH + " characters"));
        }
        if (document == null || !document.isObject()) {
            throw new InvalidSkillException(List.of("a skill is a JSON object"));
        }
        ObjectNode skill = ((ObjectNode) document).deepCopy();
        skill.remove(List.of("version", "publishedAt"));
        JsonNode declared = skill.get("slug");
        if (declared != null && !slug.equals(declared.asText())) {
            problems.add("the document's slug '" + declared.asText() + "' differs from '" + slug + "'");
        }
        skill.put("slug", slug);
        requireText(skill, "name", 200, true, problems);
        requireText(skill, "description", 4000, false, problems);
        Set<String> roles = providers(skill.get("providers"), problems);
        Map<String, List<String>> after = steps(skill.get("steps"), roles, problems);
        JsonNode output = skill.get("output");
        if (output != null && (!output.isTextual() || !after.containsKey(output.asText()))) {
            problems.add("output must name the step whose result the skill returns");
        }
        if (problems.isEmpty()) {
            List<String> cycle = findCycle(after);
            if (!cycle.isEmpty()) {
                problems.add("the steps form a cycle: " + String.join(" → ", cycle));
            } else {
                placeholders(skill.get("steps"), after, problems);
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidSkillException(problems);
        }
        return skill;
    }

    private static void requireText(JsonNode skill, String field, int max, boolean required, List<String> problems) {
        JsonNode node = skill.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                problems.add(field + " is required");
            }
        } else if (!node.isTextual() || node.asText().isBlank() || node.asText().length() > max) {
            problems.add(field + " must be a non-empty string of at most " + max + " characters");
        }
    }

    private static Set<String> providers(JsonNode providers, List<String> problems) {
        Set<String> roles = new LinkedHashSet<>();
        if (providers == null || !providers.isArray() || providers.isEmpty()) {
            problems.add("providers must be a non-empty array");
            return roles;
        }
        if (providers.size() > MAX_PROVIDERS) {
            problems.add("a skill has at most " + MAX_PROVIDERS + " providers");
        }
        int index = 0;
        for (JsonNode provider : providers) {
            String where = "providers[" + index++ + "]";
            if (!provider.isObject()) {
                problems.add(where + " must be an object with role, models and deposit");
                continue;
            }
            String role = provider.path("role").isTextual() ? provider.get("role").asText() : null;
            if (role == null || !ROLE.matcher(role).matches()) {
                problems.add(where + ".role must be lowercase letters, digits, '_' or '-', starting with a letter");
            } else if (!roles.add(role)) {
                problems.add(where + ".role '" + role + "' is used by another provider");
            }
            String label = role == null ? where : "provider '" + role + "'";
            JsonNode models = provider.get("models");
            if (models == null || !models.isArray() || models.isEmpty()) {
                problems.add(label + ": models must be a non-empty array of model names");
            } else {
                for (JsonNode model : models) {
                    if (!model.isTextual() || model.asText().isBlank()) {
                        problems.add(label + ": every model must be a non-empty string");
                        break;
                    }
                }
            }
            deposit(label, provider.get("deposit"), problems);
            JsonNode category = provider.get("category");
            if (category != null && (!category.isTextual() || ProviderCategory.fromCode(category.asText()).isEmpty())) {
                problems.add(label + ": category must be one of " + ProviderCategory.codes());
            }
        }
        return roles;
    }

    private static void deposit(String label, JsonNode deposit, List<String> problems) {
        if (deposit == null || !deposit.isTextual()) {
            problems.add(label + ": deposit must be a USDC amount as a decimal string, such as \"0.50\"");
            return;
        }
        try {
            BigInteger units = Usdc.parseDecimalUsdc(deposit.asText());
            if (units.signum() == 0) {
                problems.add(label + ": deposit must be more than 0 USDC");
            }
        } catch (IllegalArgumentException e) {
            problems.add(label + ": deposit \"" + deposit.asText() + "\" is not a USDC amount: " + e.getMessage());
        }
    }

    /** Returns each step's direct dependencies, in document order. */
    private static Map<String, List<String>> steps(JsonNode steps, Set<String> roles, List<String> problems) {
        Map<String, List<String>> after = new LinkedHashMap<>();
        if (steps == null || !steps.isArray() || steps.isEmpty()) {
            problems.add("steps must be a non-empty array");
            return after;
        }
        if (steps.size() > MAX_STEPS) {
            problems.add("a skill has at most " + MAX_STEPS + " steps");
        }
        int index = 0;
        for (JsonNode step : steps) {
            String where = "steps[" + index++ + "]";
            String id = step.path("id").isTextual() ? step.get("id").asText() : null;
            if (!step.isObject() || id == null || !STEP_ID.matcher(id).matches() || id.equals(USER_PROMPT)) {
                problems.add(where + ".id must be lowercase letters, digits or '_', starting with a letter, and not '"
                        + USER_PROMPT + "'");
                continue;
            }
            if (after.containsKey(id)) {
                problems.add("step id '" + id + "' is used twice");
                continue;
            }
            after.put(id, new ArrayList<>());
        }
        for (JsonNode step : steps) {
            String id = step.path("id").asText();
            if (!after.containsKey(id)) {
                continue;
            }
            String role = step.path("role").isTextual() ? step.get("role").asText() : null;
            if (role == null) {
                problems.add("step '" + id + "' names no role");
            } else if (!roles.contains(role)) {
                problems.add("step '" + id + "' uses role '" + role + "', which is not among the skill's providers "
                        + roles);
            }
            if (!step.path("message").isObject()) {
                problems.add("step '" + id + "' needs a message object (the payload sent to its provider)");
            }
            JsonNode template = step.get("template");
            if (template != null && !template.isTextual()) {
                problems.add("step '" + id + "': template must be a string");
            }
            JsonNode dependencies = step.get("after");
            if (dependencies == null || dependencies.isNull()) {
                continue;
            }
            if (!dependencies.isArray()) {
                problems.add("step '" + id + "': after must be an array of step ids");
                continue;
            }
            for (JsonNode dependency : dependencies) {
                String name = dependency.asText();
                if (!dependency.isTextual() || !after.containsKey(name)) {
                    problems.add("step '" + id + "' runs after '" + name + "', which is not a step of this skill");
                } else if (name.equals(id)) {
                    problems.add("step '" + id + "' runs after itself");
                } else if (after.get(id).contains(name)) {
                    problems.add("step '" + id + "' lists '" + name + "' twice in after");
                } else {
                    after.get(id).add(name);
                }
            }
        }
        return after;
    }

    /** A cycle as a path that returns to its start, or empty when the steps form none. */
    static List<String> findCycle(Map<String, List<String>> after) {
        Map<String, Integer> state = new HashMap<>();
        Deque<String> path = new ArrayDeque<>();
        for (String start : after.keySet()) {
            List<String> cycle = visit(start, after, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(String step, Map<String, List<String>> after, Map<String, Integer> state,
                                      Deque<String> path) {
        Integer seen = state.get(step);
        if (seen != null && seen == 2) {
            return List.of();
        }
        if (seen != null) {
            List<String> cycle = new ArrayList<>();
            List<String> trail = new ArrayList<>(path);
            Collections.reverse(trail);
            cycle.addAll(trail.subList(trail.indexOf(step), trail.size()));
            cycle.add(step);
            return cycle;
        }
        state.put(step, 1);
        path.push(step);
        for (String dependency : after.getOrDefault(step, List.of())) {
            List<String> cycle = visit(dependency, after, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.pop();
        state.put(step, 2);
        return List.of();
    }

    private static void placeholders(JsonNode steps, Map<String, List<String>> after, List<String> problems) {
        for (JsonNode step : steps) {
            String id = step.get("id").asText();
            Set<String> before = ancestors(id, after);
            Set<String> used = new LinkedHashSet<>();
            collect(step.get("template"), used);
            collect(step.get("message"), used);
            for (String name : used) {
                if (name.equals(USER_PROMPT) || before.contains(name)) {
                    continue;
                }
                if (!after.containsKey(name)) {
                    problems.add("step '" + id + "' uses {{" + name + "}}, which names no step (nor user_prompt)");
                } else {
                    problems.add("step '" + id + "' uses {{" + name + "}}, but '" + name
                            + "' is not among the steps it runs after (directly or through others)");
                }
            }
        }
    }

    private static Set<String> ancestors(String step, Map<String, List<String>> after) {
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(after.getOrDefault(step, List.of()));
        while (!todo.isEmpty()) {
            String next = todo.pop();
            if (seen.add(next)) {
                todo.addAll(after.getOrDefault(next, List.of()));
            }
        }
        return seen;
    }

    private static void collect(JsonNode node, Set<String> used) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            Matcher matcher = PLACEHOLDER.matcher(node.asText());
            while (matcher.find()) {
                used.add(matcher.group(1));
            }
        } else if (node.isContainerNode()) {
            node.forEach(child -> collect(child, used));
        }
    }
}
