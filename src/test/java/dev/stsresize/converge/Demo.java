package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The demo scenario, with single objects changed for one test. */
final class Demo {
    private Demo() {}

    static List<ObjectNode> cluster() {
        return DemoScenario.cluster();
    }

    /** The demo cluster with the object of {@code kind} and {@code name} changed by {@code change}. */
    static List<ObjectNode> clusterWith(String kind, String name, Consumer<ObjectNode> change) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode o : DemoScenario.cluster()) {
            if (o.path("kind").asText().equals(kind) && o.at("/metadata/name").asText().equals(name)) {
                change.accept(o);
            }
            out.add(o);
        }
        return out;
    }

    /** The demo manifest's StatefulSet {@code name}, changed by {@code change}. */
    static ObjectNode declared(String name, Consumer<ObjectNode> change) {
        for (ObjectNode o : DemoScenario.manifest()) {
            if (o.at("/metadata/name").asText().equals(name)) {
                change.accept(o);
                return o;
            }
        }
        throw new IllegalArgumentException("no " + name + " in the demo manifest");
    }

    static ObjectNode declared(String name) {
        return declared(name, o -> { });
    }
}
