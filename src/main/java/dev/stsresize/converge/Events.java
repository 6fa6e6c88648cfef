package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import java.time.Clock;

/**
 * Step 9: an events.k8s.io/v1 Event for every write, on the object written, naming the operator;
 * {@code reportingController} is {@code kubectl-stsresize}. An Event that cannot be written is said
 * (a warning) and never stops the converge: the work is recorded in the Lease and journal too.
 */
record Events(Cluster cluster, Clock clock, String operator, Progress progress) {
    static final String CONTROLLER = "kubectl-stsresize";

    /**
     * {@code <name>-}, which kube-apiserver accepts for events.k8s.io/v1: pkg/apis/core/validation/events.go
     * checks generateName with NameIsDNSSubdomain (a trailing dash allowed, a trailing '.' refused:
     * {@code <name>.} was a 422), and names.SimpleNameGenerator keeps 58 characters of the prefix, so
     * the name is cut to 57 first and never left ending in '.' or '-' (the generated name would not be
     * a DNS subdomain).
     */
    static String generateName(String name) {
        String base = name.length() > 57 ? name.substring(0, 57) : name;
        while (!base.isEmpty() && !Character.isLetterOrDigit(base.charAt(base.length() - 1))) {
            base = base.substring(0, base.length() - 1);
        }
        return base + "-";
    }

    void on(ObjectNode regarding, String reason, String action, String note) {
        ObjectNode e = Objects.MAPPER.createObjectNode();
        e.put("apiVersion", "events.k8s.io/v1").put("kind", "Event");
        String name = Objects.name(regarding);
        e.putObject("metadata").put("generateName", generateName(name)).put("namespace", Objects.namespace(regarding));
        e.put("eventTime", LeaseLock.now(clock));
        e.put("reportingController", CONTROLLER);
        e.put("reportingInstance", operator.length() > 128 ? operator.substring(0, 128) : operator);
        e.put("action", action);
        e.put("reason", reason);
        e.put("type", "Normal");
        String text = note + " (by " + operator + ")";
        e.put("note", text.length() > 1024 ? text.substring(0, 1024) : text);
        ObjectNode ref = e.putObject("regarding");
        ref.put("apiVersion", Objects.text(regarding, "apiVersion")).put("kind", Objects.text(regarding, "kind"))
                .put("namespace", Objects.namespace(regarding)).put("name", name).put("uid", Objects.uid(regarding));
        try {
            cluster.createEvent(e);
        } catch (RuntimeException ex) {
            progress.on(ProgressEvent.warn(Objects.namespace(regarding), name, Step.RECORD,
                    "could not record Event " + reason + " on " + Objects.text(regarding, "kind") + " " + name + ": " + ex.getMessage()));
        }
    }
}
