package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stsresize.sim.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The rule no converge may break, read from what the server received: every DELETE of a StatefulSet
 * carried {@code propagationPolicy: Orphan} and a UID precondition, and no claim (nor anything else
 * but a run's own record Secret, by its UID) was ever deleted.
 */
final class SafetyInvariant {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SafetyInvariant() {}

    static List<String> violations(List<RecordedRequest> log) {
        List<String> out = new ArrayList<>();
        for (RecordedRequest r : log) {
            if (!r.method().equals("DELETE")) {
                continue;
            }
            if ("secrets".equals(r.resource()) && r.path().matches("/api/v1/namespaces/[^/]+/secrets/stsresize-[^/]+")) {
                // a run's own record, released: with the UID it wrote, never a Secret re-created since
                if (!r.body().contains("\"uid\"")) {
                    out.add("DELETE " + r.path() + " without a UID precondition: " + r.body());
                }
                continue;
            }
            if (!"statefulsets".equals(r.resource())) {
                out.add("DELETE of " + r.resource() + " " + r.path());
                continue;
            }
            try {
                JsonNode body = JSON.readTree(r.body() == null || r.body().isEmpty() ? "{}" : r.body());
                if (!"Orphan".equals(body.path("propagationPolicy").asText())) {
                    out.add("DELETE " + r.path() + " without propagationPolicy Orphan: " + r.body());
                }
                if (body.path("preconditions").path("uid").asText("").isEmpty()) {
                    out.add("DELETE " + r.path() + " without a UID precondition: " + r.body());
                }
            } catch (Exception e) {
                out.add("DELETE " + r.path() + " with an unreadable body: " + r.body());
            }
        }
        return out;
    }
}
