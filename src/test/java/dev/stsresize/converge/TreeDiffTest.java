package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The lines that show what a resume would re-apply and why a record no longer matches: one per differing
 * leaf, in path order, with JSON Pointer escapes, long values cut, and a server-side apply's view that
 * leaves out what the applied object does not mention.
 */
class TreeDiffTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) {
        try {
            return JSON.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(s, e);
        }
    }

    /** The lines between two trees given in JSON with single quotes, no path ignored. */
    private static java.util.List<String> allLines(String before, String after) {
        return TreeDiff.lines(json(before), json(after), p -> false);
    }

    @Test
    void one_line_per_differing_leaf_in_path_order_with_arrays_by_index_and_removals_absent() {
        assertThat(allLines("{'spec':{'replicas':3,'b':[1,2],'same':'x','gone':true}}",
                "{'spec':{'replicas':5,'b':[1,3,4],'same':'x','a':'new'}}")).containsExactly(
                "/spec/a: (absent) → \"new\"",
                "/spec/b/1: 2 → 3",
                "/spec/b/2: (absent) → 4",
                "/spec/gone: true → (absent)",
                "/spec/replicas: 3 → 5");
    }

    @Test
    void equal_trees_have_no_lines_and_ignored_paths_are_left_out() {
        JsonNode a = json("{'metadata':{'resourceVersion':'1','name':'db'},'spec':{'replicas':3}}");
        JsonNode b = json("{'metadata':{'resourceVersion':'2','name':'db'},'spec':{'replicas':3}}");
        assertThat(TreeDiff.lines(a, a.deepCopy(), p -> false)).isEmpty();
        assertThat(TreeDiff.lines(a, b, p -> false)).containsExactly("/metadata/resourceVersion: \"1\" → \"2\"");
        assertThat(TreeDiff.lines(a, b, p -> p.equals("/metadata/resourceVersion"))).isEmpty();
    }

    @Test
    void keys_are_escaped_as_json_pointer_and_empty_containers_are_leaves() {
        assertThat(allLines("{'metadata':{'annotations':{'example.com/a~b':'1'}},'list':[],'map':{}}",
                "{'metadata':{'annotations':{'example.com/a~b':'2'}},'list':[0],'map':{'k':1}}")).containsExactly(
                "/list: [] → (absent)",
                "/list/0: (absent) → 0",
                "/map: {} → (absent)",
                "/map/k: (absent) → 1",
                "/metadata/annotations/example.com~1a~0b: \"1\" → \"2\"");
    }

    @Test
    void a_scalar_root_is_the_path_slash_and_a_missing_tree_has_no_leaves() {
        assertThat(TreeDiff.lines(json("1"), json("2"), p -> false)).containsExactly("/: 1 → 2");
        assertThat(TreeDiff.lines(null, json("{'a':1}"), p -> false)).containsExactly("/a: (absent) → 1");
        assertThat(TreeDiff.lines(json("{'a':1}"), JSON.missingNode(), p -> false)).containsExactly("/a: 1 → (absent)");
    }

    @Test
    void a_value_longer_than_120_characters_is_cut_and_its_length_said() {
        String exactly = "x".repeat(118); // 120 characters with its quotes: shown whole
        String longer = "y".repeat(119); // 121 with its quotes: cut
        assertThat(allLines("{'a':'" + exactly + "','b':'" + longer + "'}", "{'a':1,'b':2}")).containsExactly(
                "/a: \"" + exactly + "\" → 1",
                "/b: \"" + longer.substring(0, 119) + "… (121 characters) → 2");
    }

    @Test
    void what_an_apply_sets_leaves_out_the_fields_it_does_not_mention() {
        JsonNode live = json("{'spec':{'replicas':3,'serviceName':'db','minReadySeconds':0}}");
        JsonNode applied = json("{'spec':{'replicas':3,'serviceName':'db2'}}");
        assertThat(TreeDiff.setBy(live, applied, p -> false)).containsExactly("/spec/serviceName: \"db\" → \"db2\"");
        assertThat(TreeDiff.lines(live, applied, p -> false)).containsExactly(
                "/spec/minReadySeconds: 0 → (absent)", "/spec/serviceName: \"db\" → \"db2\"");
        assertThat(TreeDiff.setBy(live, applied, p -> p.startsWith("/spec/serviceName"))).isEmpty();
    }
}
