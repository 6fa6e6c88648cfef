package dev.stsresize.tui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.LiveState;
import dev.stsresize.sim.demo.DemoScenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The demo scenario's decisions, made by the real Decider from its manifest and settled cluster: pure, no server. */
final class DemoDecisions {
    private DemoDecisions() {}

    static Loaded loaded() {
        return loaded(DemoScenario.cluster(), DemoScenario.manifest(), dev.stsresize.plan.CopyOptIn.NONE);
    }

    /** The copy demo's decisions (a StatefulSet on local-path, which cannot expand), with or without the opt-in. */
    static Loaded copyLoaded(dev.stsresize.plan.CopyOptIn copy) {
        return loaded(DemoScenario.copyCluster(), DemoScenario.copyManifest(), copy);
    }

    static Loaded loaded(List<ObjectNode> cluster, List<ObjectNode> manifest, dev.stsresize.plan.CopyOptIn copy) {
        List<ObjectNode> sts = new ArrayList<>();
        List<ObjectNode> claims = new ArrayList<>();
        List<ObjectNode> classes = new ArrayList<>();
        List<ObjectNode> drivers = new ArrayList<>();
        Map<String, String> uids = new HashMap<>();
        Map<String, String> managers = new HashMap<>();
        for (ObjectNode o : cluster) {
            switch (o.path("kind").asText()) {
                case "StatefulSet" -> {
                    sts.add(o);
                    uids.put(o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText(),
                            o.path("metadata").path("uid").asText());
                    managers.put(o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText(),
                            dev.stsresize.converge.ReapplyObject.fieldManager(o, java.util.Optional.empty()));
                }
                case "PersistentVolumeClaim" -> claims.add(o);
                case "StorageClass" -> classes.add(o);
                case "CSIDriver" -> drivers.add(o);
                default -> { }
            }
        }
        List<Decision> decisions = Decider.decide(manifest, new LiveState(sts, claims, classes, true, drivers, true), copy);
        return new Loaded(decisions, uids, "(offline)", "snapshot demo/live.yaml", "analytics,legacy,shop", "demo/manifest.yaml",
                Map.of(), List.of(), managers).withCopy(copy);
    }

    static UiState state(int columns, int rows) {
        return Update.apply(UiState.initial(columns, rows), new UiEvent.DecisionsLoaded(loaded())).state();
    }

    /** The demo's one StatefulSet with this name. */
    static Decision named(String name) {
        return loaded().decisions().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }
}
