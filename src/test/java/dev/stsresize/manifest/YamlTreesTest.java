package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The direct reading of a composed document gives exactly the tree of SnakeYAML's constructor and Jackson's
 * {@code valueToTree} (node types included: an int is an IntNode, a long a LongNode), and leaves to the
 * constructor every document where it could differ.
 */
class YamlTreesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LoaderOptions options() {
        LoaderOptions o = new LoaderOptions();
        o.setAllowDuplicateKeys(false);
        return o;
    }

    private static Node compose(String yaml) {
        LoaderOptions o = options();
        Yaml y = new Yaml(new DocumentReader.Constructor(o), new org.yaml.snakeyaml.representer.Representer(new org.yaml.snakeyaml.DumperOptions()),
                new org.yaml.snakeyaml.DumperOptions(), o);
        return y.compose(new StringReader(yaml));
    }

    private static JsonNode direct(String yaml) {
        DocumentReader.Constructor c = new DocumentReader.Constructor(options());
        return new YamlTrees(c::scalar, JSON).of(compose(yaml));
    }

    private static JsonNode constructed(String yaml) {
        Object value = new DocumentReader.Constructor(options()).construct(compose(yaml));
        return JSON.valueToTree(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "a: 1\nb: -7\nc: 0x1F\nd: 0o17\ne: 017\nf: 1_000\ng: 190:20:30",
        "big: 12345678901\nhuge: 123456789012345678901234567890\nneg: -2147483649",
        "f: 1.5\ng: .inf\nh: -.Inf\ni: .nan\nj: 1e3\nk: 6.8523015e+5\nl: 0.",
        "t: true\nf: false\ny: yes\nn: No\nx: on\nz: OFF",
        "a: ~\nb: null\nc:\nd: ''\ne: \"\"",
        "date: 2001-12-14\nstamp: 2001-12-14t21:59:43.10-05:00\nspaced: 2001-12-14 21:59:43.10 -5",
        "q1: \"1\"\nq2: '0x1F'\nq3: 'yes'\nstr: !!str 12\nint: !!int \"12\"\nfloat: !!float '1'",
        "bin: !!binary aGVsbG8=",
        "list: [1, two, 3.0, null, [a, b], {c: d}]\nempty: []\nnone: {}\nnested: {a: {b: {c: [x, {y: z}]}}}",
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, labels: {app: db}}\nspec:\n  replicas: 3\n"
                + "  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {resources: {requests: {storage: 10Gi}}}",
        "multi: |\n  line one\n  line two\nfolded: >\n  a\n  b\nkeep: |+\n  x\n\n",
        "a: !!map {b: 1}\nc: !!seq [d]",
        "'quoted key': 1\n\"<<\": not a merge\n? complex\n: plain",
    })
    void reads_plain_documents_as_the_constructor_does(String yaml) {
        JsonNode direct = direct(yaml);
        assertThat(direct).as("read directly").isNotNull();
        assertThat(direct).isEqualTo(constructed(yaml));
        assertThat(types(direct)).isEqualTo(types(constructed(yaml)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "a: &x {b: 1}\nc: *x",
        "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2",
        "1: one\n2: two",
        "yes: a",
        "~: a",
        "a: 1\na: 2",
        "s: !!set {a, b}",
        "o: !!omap [a: 1, b: 2]",
        "t: !custom value",
        "[a, b]: c",
    })
    void leaves_the_others_to_the_constructor(String yaml) {
        assertThat(direct(yaml)).isNull();
    }

    /** Each node's class, in document order: equal trees can still differ in a number's type. */
    private static String types(JsonNode n) {
        StringBuilder out = new StringBuilder(n.getClass().getSimpleName());
        if (n.isContainerNode()) {
            out.append('(');
            n.forEach(child -> out.append(types(child)).append(' '));
            out.append(')');
        }
        return out.toString();
    }
}
