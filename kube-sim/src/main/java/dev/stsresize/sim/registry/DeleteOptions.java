package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A DeleteOptions: propagation policy, the deprecated orphanDependents, preconditions on uid and
 * resourceVersion, dryRun and gracePeriodSeconds (null: the object's own).
 *
 * <p>Where they come from is {@link #ofRequest}: the rule of kube-apiserver's DELETE handlers.
 */
public record DeleteOptions(String propagationPolicy, Boolean orphanDependents, String preconditionUid,
        String preconditionResourceVersion, boolean dryRun, Long gracePeriodSeconds) {

    public static final DeleteOptions BACKGROUND = new DeleteOptions(null, null, null, null, false);

    public DeleteOptions(String propagationPolicy, Boolean orphanDependents, String preconditionUid,
            String preconditionResourceVersion, boolean dryRun) {
        this(propagationPolicy, orphanDependents, preconditionUid, preconditionResourceVersion, dryRun, null);
    }

    public static DeleteOptions orphan(String uid) {
        return new DeleteOptions("Orphan", null, uid, null, false);
    }

    /**
     * The options of a DELETE (or deletecollection) request, read as
     * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/delete.go (DeleteResource, DeleteCollection)
     * reads them: from the body whenever the request has one, and then the query is NEVER read, so a
     * {@code ?dryRun=All} beside a body deletes for real (seen on a real v1.24 server,
     * docs/reference/real-apiserver-v1.32.md, last section); from the query parameters only when the
     * body is empty. Preconditions have no query form.
     */
    public static DeleteOptions ofRequest(JsonNode body, Map<String, String> query) {
        if (body != null) {
            return fromJson(body);
        }
        String policy = query.get("propagationPolicy");
        String orphan = query.get("orphanDependents");
        String grace = query.get("gracePeriodSeconds");
        return new DeleteOptions(policy, orphan == null ? null : Boolean.parseBoolean(orphan), null, null,
                "All".equals(query.get("dryRun")), grace == null ? null : parseGrace(grace));
    }

    /** The fields of a DeleteOptions object (a DELETE's body, an Eviction's deleteOptions). */
    public static DeleteOptions fromJson(JsonNode body) {
        String policy = body.hasNonNull("propagationPolicy") ? body.get("propagationPolicy").asText() : null;
        Boolean orphan = body.hasNonNull("orphanDependents") ? body.get("orphanDependents").asBoolean() : null;
        JsonNode pre = body.path("preconditions");
        String uid = pre.hasNonNull("uid") ? pre.get("uid").asText() : null;
        String rv = pre.hasNonNull("resourceVersion") ? pre.get("resourceVersion").asText() : null;
        boolean dry = false;
        for (JsonNode d : body.path("dryRun")) {
            dry |= "All".equals(d.asText());
        }
        Long grace = body.hasNonNull("gracePeriodSeconds") ? body.get("gracePeriodSeconds").asLong() : null;
        return new DeleteOptions(policy, orphan, uid, rv, dry, grace);
    }

    public DeleteOptions withDryRun(boolean d) {
        return new DeleteOptions(propagationPolicy, orphanDependents, preconditionUid, preconditionResourceVersion, d,
                gracePeriodSeconds);
    }

    private static long parseGrace(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw dev.stsresize.sim.ApiError.of(400, "BadRequest", "strconv.ParseInt: parsing \"" + s + "\": invalid syntax", null);
        }
    }
}
