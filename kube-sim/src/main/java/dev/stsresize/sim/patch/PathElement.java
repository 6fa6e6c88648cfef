package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * One step of a field path, as sigs.k8s.io/structured-merge-diff fieldpath.PathElement: a field
 * name, the key of an associative-list item, the value of a set item, or a list index.
 */
sealed interface PathElement extends Comparable<PathElement> {

    /** "f:name", "k:{…}", "v:…" or "i:0": the FieldsV1 spelling (fieldpath/serialize-pe.go). */
    String serialize();

    /** ".name", "[name=\"web\"]", "[=\"x\"]" or "[0]": the spelling of conflict messages (fieldpath/element.go String). */
    String toString();

    /** Which variant, for the cross-variant order of PathElement.Compare: field < key < value < index. */
    int rank();

    @Override
    default int compareTo(PathElement o) {
        int byRank = Integer.compare(rank(), o.rank());
        return byRank != 0 ? byRank : compareSameRank(o);
    }

    int compareSameRank(PathElement o);

    record Field(String name) implements PathElement {
        public String serialize() {
            return "f:" + name;
        }

        public String toString() {
            return "." + name;
        }

        public int rank() {
            return 0;
        }

        public int compareSameRank(PathElement o) {
            return name.compareTo(((Field) o).name);
        }
    }

    /** Key fields sorted by name, as value.FieldList.Sort leaves them. */
    record Key(TreeMap<String, JsonNode> fields) implements PathElement {
        public String serialize() {
            ObjectNode o = PatchTrees.NODES.objectNode();
            fields.forEach(o::set);
            return "k:" + o;
        }

        public String toString() {
            StringBuilder b = new StringBuilder("[");
            fields.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append(k).append('=').append(Values.toText(v)));
            return b.append(']').toString();
        }

        public int rank() {
            return 1;
        }

        public int compareSameRank(PathElement o) {
            Iterator<Map.Entry<String, JsonNode>> a = fields.entrySet().iterator();
            Iterator<Map.Entry<String, JsonNode>> b = ((Key) o).fields.entrySet().iterator();
            while (a.hasNext() && b.hasNext()) {
                Map.Entry<String, JsonNode> x = a.next();
                Map.Entry<String, JsonNode> y = b.next();
                int c = x.getKey().compareTo(y.getKey());
                if (c == 0) {
                    c = Values.compare(x.getValue(), y.getValue());
                }
                if (c != 0) {
                    return c;
                }
            }
            return Boolean.compare(a.hasNext(), b.hasNext());
        }
    }

    record Value(JsonNode value) implements PathElement {
        public String serialize() {
            return "v:" + value;
        }

        public String toString() {
            return "[=" + Values.toText(value) + "]";
        }

        public int rank() {
            return 2;
        }

        public int compareSameRank(PathElement o) {
            return Values.compare(value, ((Value) o).value);
        }
    }

    record Index(int index) implements PathElement {
        public String serialize() {
            return "i:" + index;
        }

        public String toString() {
            return "[" + index + "]";
        }

        public int rank() {
            return 3;
        }

        public int compareSameRank(PathElement o) {
            return Integer.compare(index, ((Index) o).index);
        }
    }
}
