package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * A {@link Record} for a test, which names only the fields it is about: the others are those of a
 * run on StatefulSet shop/db (UID u1) by alice, growing, started at "t0", with no objects, no claims
 * and no requests before.
 */
final class RecordBuilder {
    private String server = "https://k";
    private String namespace = "shop";
    private String name = "db";
    private String uid = "u1";
    private String holder = "alice";
    private String phase = Phase.GROW.recorded();
    private String startedAt = "t0";
    private String fieldManager = "kubectl";
    private ObjectNode live;
    private ObjectNode reapply;
    private Map<String, String> claimTargets = Map.of();
    private Map<String, String> claimsBefore = Map.of();

    private RecordBuilder() {}

    static RecordBuilder record() {
        return new RecordBuilder();
    }

    Record build() {
        return new Record(server, namespace, name, uid, holder, phase, startedAt, fieldManager, live, reapply, claimTargets,
                claimsBefore);
    }

    RecordBuilder server(String s) {
        server = s;
        return this;
    }

    RecordBuilder namespace(String ns) {
        namespace = ns;
        return this;
    }

    RecordBuilder name(String n) {
        name = n;
        return this;
    }

    RecordBuilder uid(String u) {
        uid = u;
        return this;
    }

    RecordBuilder holder(String h) {
        holder = h;
        return this;
    }

    RecordBuilder phase(String p) {
        phase = p;
        return this;
    }

    RecordBuilder startedAt(String t) {
        startedAt = t;
        return this;
    }

    RecordBuilder fieldManager(String f) {
        fieldManager = f;
        return this;
    }

    RecordBuilder live(ObjectNode o) {
        live = o;
        return this;
    }

    RecordBuilder reapply(ObjectNode o) {
        reapply = o;
        return this;
    }

    RecordBuilder claimTargets(Map<String, String> targets) {
        claimTargets = targets;
        return this;
    }

    RecordBuilder claimsBefore(Map<String, String> before) {
        claimsBefore = before;
        return this;
    }
}
