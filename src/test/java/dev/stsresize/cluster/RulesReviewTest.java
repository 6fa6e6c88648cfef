package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A rules review grants what RBAC's RuleAllows would: verb, group, resource[/sub] and name, with RBAC's wildcards. */
class RulesReviewTest {
    static RulesReview.Rule rule(List<String> verbs, List<String> groups, List<String> resources, List<String> names) {
        return new RulesReview.Rule(verbs, groups, resources, names);
    }

    static ResourceAccess access(String verb, String group, String resource, String sub, String name) {
        return new ResourceAccess(verb, group, resource, sub, "shop", name);
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("the exact verb, group and resource", rule(List.of("patch"), List.of(""), List.of("persistentvolumeclaims"), List.of()),
                        access("patch", "", "persistentvolumeclaims", "", ""), true),
                Arguments.of("another verb", rule(List.of("get"), List.of(""), List.of("persistentvolumeclaims"), List.of()),
                        access("patch", "", "persistentvolumeclaims", "", ""), false),
                Arguments.of("another group", rule(List.of("delete"), List.of("extensions"), List.of("statefulsets"), List.of()),
                        access("delete", "apps", "statefulsets", "", ""), false),
                Arguments.of("every verb, group and resource", rule(List.of("*"), List.of("*"), List.of("*"), List.of()),
                        access("create", "", "pods", "eviction", ""), true),
                Arguments.of("the resource does not grant its subresource", rule(List.of("create"), List.of(""), List.of("pods"), List.of()),
                        access("create", "", "pods", "eviction", ""), false),
                Arguments.of("resource/subresource", rule(List.of("create"), List.of(""), List.of("pods/eviction"), List.of()),
                        access("create", "", "pods", "eviction", ""), true),
                Arguments.of("*/subresource", rule(List.of("create"), List.of(""), List.of("*/eviction"), List.of()),
                        access("create", "", "pods", "eviction", ""), true),
                Arguments.of("a rule for named objects does not grant the whole namespace",
                        rule(List.of("get", "update"), List.of("coordination.k8s.io"), List.of("leases"), List.of("stsresize-db")),
                        access("get", "coordination.k8s.io", "leases", "", ""), false),
                Arguments.of("a rule for named objects grants that name",
                        rule(List.of("get", "update"), List.of("coordination.k8s.io"), List.of("leases"), List.of("stsresize-db")),
                        access("get", "coordination.k8s.io", "leases", "", "stsresize-db"), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void grants_as_rbac_would(String row, RulesReview.Rule rule, ResourceAccess access, boolean allowed) {
        assertThat(new RulesReview(List.of(rule), false, "").allows(access)).isEqualTo(allowed);
    }
}
