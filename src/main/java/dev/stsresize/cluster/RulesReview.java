package dev.stsresize.cluster;

import java.util.List;

/**
 * The server's answer to a SelfSubjectRulesReview: the resource rules the current user holds in one
 * namespace, and whether that list is all there is ({@code incomplete} is set where an authorizer
 * cannot list its rules: a webhook, the Node authorizer). The answer is untrusted input: a rule is
 * read only as far as it grants, and a rule this class cannot read grants nothing.
 */
public record RulesReview(List<Rule> rules, boolean incomplete, String evaluationError) {
    public RulesReview {
        rules = List.copyOf(rules);
        evaluationError = evaluationError == null ? "" : evaluationError;
    }

    /** One resource rule (authorization.k8s.io/v1 ResourceRule). */
    public record Rule(List<String> verbs, List<String> apiGroups, List<String> resources, List<String> resourceNames) {
        public Rule {
            verbs = List.copyOf(verbs);
            apiGroups = List.copyOf(apiGroups);
            resources = List.copyOf(resources);
            resourceNames = List.copyOf(resourceNames);
        }

        /**
         * plugin/pkg/auth/authorizer/rbac/rbac.go RuleAllows with pkg/apis/rbac/v1/evaluation_helpers.go:
         * the verb ("*" any), the group ("*" any), the resource ("*", "resource[/sub]" exactly, or
         * "*&#47;sub" for any resource's subresource) and, when the rule names objects, the name.
         */
        boolean allows(ResourceAccess a) {
            String combined = a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
            return matches(verbs, a.verb()) && matches(apiGroups, a.group())
                    && resources.stream().anyMatch(r -> r.equals("*") || r.equals(combined)
                            || !a.subresource().isEmpty() && r.equals("*/" + a.subresource()))
                    && (resourceNames.isEmpty() || resourceNames.contains(a.name()));
        }

        private static boolean matches(List<String> values, String value) {
            return values.contains("*") || values.contains(value);
        }
    }

    /**
     * Whether a rule grants the access. Only a complete answer can say no: where it is incomplete, a
     * missing rule may still be granted by an authorizer that does not list rules.
     */
    public boolean allows(ResourceAccess access) {
        return rules.stream().anyMatch(r -> r.allows(access));
    }
}
