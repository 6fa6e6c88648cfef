package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The small readers of raw objects the converge decides with: owners, conditions, selectors, and what a create may carry. */
class ObjectsTest {
    @Test
    void names_namespaces_and_keys_with_default_for_a_missing_namespace() {
        ObjectNode o = Objects.parse("{\"metadata\":{\"name\":\"db\",\"uid\":\"u\"}}");
        assertThat(Objects.name(o)).isEqualTo("db");
        assertThat(Objects.namespace(o)).isEqualTo("default");
        assertThat(Objects.key(o)).isEqualTo("default/db");
        assertThat(Objects.uid(o)).isEqualTo("u");
        assertThat(Objects.namespace(Objects.parse("{\"metadata\":{\"namespace\":\"shop\"}}"))).isEqualTo("shop");
    }

    @Test
    void the_controller_uid_is_that_of_the_reference_marked_controller() {
        ObjectNode pod = Objects.parse("{\"metadata\":{\"ownerReferences\":[{\"uid\":\"a\"},{\"uid\":\"b\",\"controller\":false},"
                + "{\"uid\":\"c\",\"controller\":true}]}}");
        assertThat(Objects.controllerUid(pod)).isEqualTo("c");
        assertThat(Objects.ownedBy(pod, "a")).isTrue();
        assertThat(Objects.ownedBy(pod, "c")).isTrue();
        assertThat(Objects.ownedBy(pod, "z")).isFalse();
        ObjectNode orphan = Objects.parse("{\"metadata\":{\"ownerReferences\":[{\"uid\":\"a\"}]}}");
        assertThat(Objects.controllerUid(orphan)).isEmpty();
        assertThat(Objects.controllerUid(Objects.parse("{}"))).isEmpty();
    }

    @Test
    void a_condition_holds_when_its_status_is_true_or_not_given() {
        ObjectNode pvc = Objects.parse("{\"status\":{\"conditions\":[{\"type\":\"Resizing\",\"status\":\"False\"},"
                + "{\"type\":\"FileSystemResizePending\"}]}}");
        assertThat(Objects.hasCondition(pvc, "Resizing")).isFalse();
        assertThat(Objects.hasCondition(pvc, "FileSystemResizePending")).isTrue();
        assertThat(Objects.hasCondition(pvc, "Other")).isFalse();
        ObjectNode t = Objects.parse("{\"status\":{\"conditions\":[{\"type\":\"Resizing\",\"status\":\"True\"}]}}");
        assertThat(Objects.hasCondition(t, "Resizing")).isTrue();
    }

    @Test
    void a_creatable_copy_drops_server_metadata_finalizers_and_status_and_leaves_the_original() {
        ObjectNode o = Objects.parse("{\"metadata\":{\"name\":\"db\",\"labels\":{\"a\":\"b\"},\"resourceVersion\":\"1\",\"uid\":\"u\","
                + "\"managedFields\":[],\"creationTimestamp\":\"t\",\"generation\":2,\"selfLink\":\"/s\",\"deletionTimestamp\":\"t\","
                + "\"deletionGracePeriodSeconds\":0,\"finalizers\":[\"f\"]},\"spec\":{\"replicas\":1},\"status\":{\"replicas\":1}}");
        ObjectNode c = Objects.creatable(o);
        assertThat(Objects.json(c)).isEqualTo("{\"metadata\":{\"name\":\"db\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"replicas\":1}}");
        assertThat(o.path("metadata").has("uid")).isTrue();
        assertThat(o.has("status")).isTrue();
        assertThat(Objects.json(Objects.creatable(Objects.parse("{\"spec\":{},\"status\":{}}")))).isEqualTo("{\"spec\":{}}");
    }

    @Test
    void a_selector_in_kubectls_syntax() {
        ObjectNode sel = Objects.parse("{\"matchLabels\":{\"app\":\"db\",\"tier\":\"x\"},\"matchExpressions\":["
                + "{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\",\"b\"]},"
                + "{\"key\":\"env\",\"operator\":\"NotIn\",\"values\":[\"dev\"]},"
                + "{\"key\":\"ready\",\"operator\":\"Exists\"},"
                + "{\"key\":\"legacy\",\"operator\":\"DoesNotExist\"},"
                + "{\"key\":\"odd\",\"operator\":\"Gt\",\"values\":[\"1\"]}]}");
        assertThat(Objects.selector(sel)).isEqualTo("app=db,tier=x,zone in (a,b),env notin (dev),ready,!legacy");
        assertThat(Objects.selector(Objects.parse("{}"))).isEmpty();
    }

    @Test
    void a_child_object_is_the_one_there_or_a_new_empty_one_in_place_of_anything_else() {
        ObjectNode parent = Objects.parse("{\"spec\":{\"a\":1},\"status\":\"text\"}");
        assertThat(Objects.child(parent, "spec")).isSameAs(parent.get("spec"));
        ObjectNode status = Objects.child(parent, "status");
        assertThat(status.isEmpty()).isTrue();
        assertThat(parent.get("status")).isSameAs(status);
        assertThat(Objects.child(parent, "new")).isSameAs(parent.get("new"));
    }
}
