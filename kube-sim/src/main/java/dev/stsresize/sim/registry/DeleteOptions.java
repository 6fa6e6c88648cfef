package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A DeleteOptions body (or its query-parameter form): propagation policy, the deprecated
 * orphanDependents, preconditions on uid and resourceVersion, dryRun.
 */
public record DeleteOptions(String propagationPolicy, Boolean orphanDependents, String preconditionUid,
        String preconditionResourceVersion, boolean dryRun) {

    public static final DeleteOptions BACKGROUND = new DeleteOptions(null, null, null, null, false);

    public static DeleteOptions orphan(String uid) {
        return new DeleteOptions("Orphan", null, uid, null, false);
    }

    public static DeleteOptions fromJson(JsonNode body, String queryPolicy, boolean queryDryRun) {
        String policy = body.hasNonNull("propagationPolicy") ? body.get("propagationPolicy").asText() : queryPolicy;
        Boolean orphan = body.hasNonNull("orphanDependents") ? body.get("orphanDependents").asBoolean() : null;
        JsonNode pre = body.path("preconditions");
        String uid = pre.hasNonNull("uid") ? pre.get("uid").asText() : null;
        String rv = pre.hasNonNull("resourceVersion") ? pre.get("resourceVersion").asText() : null;
        boolean dry = queryDryRun;
        for (JsonNode d : body.path("dryRun")) {
            dry |= "All".equals(d.asText());
        }
        return new DeleteOptions(policy, orphan, uid, rv, dry);
    }
}
