package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.RulesReview;
import dev.stsresize.cluster.ServerUnreachable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the user may do, per namespace: from one complete rules review, else one access review per
 * question, asked once per run; a refused or incomplete rules review is no error.
 */
class PermissionsTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final Permissions permissions = new Permissions(cluster);

    private static ResourceAccess patchClaims(String ns) {
        return new ResourceAccess("patch", "", "persistentvolumeclaims", "", ns, "");
    }

    private static RulesReview only(String verb, String resource, boolean incomplete) {
        return new RulesReview(List.of(new RulesReview.Rule(List.of(verb), List.of(""), List.of(resource), List.of())), incomplete, "");
    }

    @Test
    void a_complete_rules_review_answers_every_question_of_its_namespace_without_another_request() {
        cluster.rules = ns -> only("patch", "persistentvolumeclaims", false);
        assertThat(permissions.known("shop")).isFalse();
        assertThat(permissions.readRules("shop")).isTrue();
        assertThat(permissions.known("shop")).isTrue();
        assertThat(permissions.known("other")).isFalse();

        assertThat(permissions.allowed(patchClaims("shop"))).isTrue();
        assertThat(permissions.allowed(new ResourceAccess("delete", "apps", "statefulsets", "", "shop", ""))).isFalse();
        assertThat(cluster.accessReviews).as("no access review where the rules are known").isEmpty();
    }

    @Test
    void an_incomplete_rules_review_is_not_kept_access_reviews_answer_once_per_question() {
        cluster.rules = ns -> only("patch", "persistentvolumeclaims", true);
        cluster.allowed = a -> a.verb().equals("get");
        assertThat(permissions.readRules("shop")).isFalse();
        assertThat(permissions.known("shop")).isFalse();

        assertThat(permissions.allowed(patchClaims("shop"))).as("the access review says no, whatever the incomplete rules said").isFalse();
        assertThat(permissions.allowed(patchClaims("shop"))).isFalse();
        assertThat(permissions.allowed(new ResourceAccess("get", "", "persistentvolumeclaims", "", "shop", ""))).isTrue();
        assertThat(permissions.allowed(patchClaims("other"))).isFalse();
        assertThat(cluster.accessReviews).as("one review per namespace and question").hasSize(3);
    }

    @Test
    void a_refused_rules_review_is_no_error_access_reviews_ask_instead() {
        cluster.rules = ns -> {
            throw MemoryCluster.error(403, "Forbidden", "selfsubjectrulesreviews is forbidden");
        };
        assertThat(permissions.readRules("shop")).isFalse();
        assertThat(permissions.known("shop")).isFalse();
        assertThat(permissions.allowed(patchClaims("shop"))).isTrue();
        assertThat(cluster.accessReviews).hasSize(1);
    }

    @Test
    void a_failed_access_review_is_the_callers_failure_as_it_was_thrown() {
        cluster.failNext("selfSubjectAccessReview", new ServerUnreachable("connection refused", null, true));
        assertThatThrownBy(() -> permissions.allowed(patchClaims("shop"))).isInstanceOf(ServerUnreachable.class)
                .hasMessage("connection refused");
    }
}
