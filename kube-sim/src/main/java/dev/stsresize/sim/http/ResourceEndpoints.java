package dev.stsresize.sim.http;

import dev.stsresize.sim.request.RequestInfo;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.auth.Authorizer;
import dev.stsresize.sim.auth.SelfSubjectRulesReviews;
import dev.stsresize.sim.auth.Tokens;
import dev.stsresize.sim.auth.User;
import dev.stsresize.sim.patch.Patches;
import dev.stsresize.sim.registry.DeleteOptions;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.registry.WriteOptions;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Selector;
import dev.stsresize.sim.store.Store;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The REST verbs on resources and their subresources, mapped to {@link Registry} calls with the
 * response codes of apiserver's handlers (staging/src/k8s.io/apiserver/pkg/endpoints/handlers):
 * 201 for create (also dry-run), 200 for update/patch (201 when apply creates), 200 for delete with
 * the object or a Success Status.
 */
final class ResourceEndpoints {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final Registry registry;
    private final Authorizer authorizer;
    private final Tokens tokens;
    private final SelfSubjectRulesReviews rulesReviews;
    /** LIST answers, each made once per resourceVersion. */
    final ListAnswers lists = new ListAnswers();

    private final PodLogs podLogs;

    ResourceEndpoints(Registry registry, Authorizer authorizer, Tokens tokens, PodLogs podLogs) {
        this.podLogs = podLogs;
        this.registry = registry;
        this.authorizer = authorizer;
        this.tokens = tokens;
        this.rulesReviews = new SelfSubjectRulesReviews(registry.store(), registry.catalog());
    }

    /** A request body and headers, as the pipeline read them. */
    record Call(RequestInfo info, ResourceType type, Map<String, String> query, byte[] body, String contentType,
            String accept, String userAgent, User user) {
        /** CreateOptions/UpdateOptions/PatchOptions dryRun: create.go, update.go and patch.go read it from the query only. */
        boolean dryRun() {
            return "All".equals(query.get("dryRun"));
        }

        /** The options of a create, update or patch, decoded and validated as its handler does ({@link WriteQuery}). */
        WriteOptions writeOptions() {
            Patches.Type patchType = info.verb().equals("patch") ? Patches.Type.fromContentType(contentType) : null;
            return WriteQuery.decode(info.verb(), info.name(), query, patchType, userAgent);
        }
    }

    Response handle(Call c) {
        RequestInfo r = c.info();
        ResourceType t = c.type();
        String sub = r.subresource();
        if (!sub.isEmpty() && !t.subresources().contains(sub)) {
            throw notFoundPath();
        }
        return switch (r.verb()) {
            case "get" -> get(c);
            case "list" -> list(c);
            case "create" -> create(c);
            case "update" -> update(c);
            case "patch" -> patch(c);
            case "delete" -> delete(c);
            case "deletecollection" -> deleteCollection(c);
            default -> throw ApiError.of(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", null);
        };
    }

    private Response get(Call c) {
        RequestInfo r = c.info();
        ObjectNode o = registry.get(c.type(), r.namespace(), r.name());
        if (r.subresource().equals("scale")) {
            return Response.of(200, registry.scaleOf(o));
        }
        if (r.subresource().equals("log")) {
            return Response.typed(200, "text/plain", podLogs.read(o, c.query()));
        }
        if (Tables.wanted(c.accept())) {
            return Response.of(200, Tables.table(c.type(), List.of(o), o.path("metadata").path("resourceVersion").asText(), Instant.now()));
        }
        return Response.of(200, o);
    }

    private Response list(Call c) {
        ResourceType t = c.type();
        Predicate<JsonNode> labels = Selector.labels(c.query().get("labelSelector"));
        Predicate<JsonNode> fields = Selector.fields(t, c.query().get("fieldSelector"));
        Store.Snapshot snap = registry.store().snapshot(t, c.info().namespace());
        List<ObjectNode> matching = snap.items().stream().filter(o -> labels.test(o) && fields.test(o)).toList();
        long limit = parseLong(c.query().get("limit"));
        ListWriter.Page page = ListWriter.page(matching, limit, c.query().get("continue"), snap.resourceVersion());
        if (Tables.wanted(c.accept())) {
            ObjectNode table = Tables.table(t, page.items(), Long.toString(snap.resourceVersion()), Instant.now());
            if (page.continueToken() != null) {
                ((ObjectNode) table.get("metadata")).put("continue", page.continueToken());
            }
            return Response.of(200, table);
        }
        ListAnswers.Key key = new ListAnswers.Key(t, c.info().namespace(), c.query().get("labelSelector"),
                c.query().get("fieldSelector"), limit, c.query().get("continue"), snap.resourceVersion());
        return Response.list(200, lists.get(key, () -> ListWriter.write(t, page, snap.resourceVersion())));
    }

    private Response create(Call c) {
        RequestInfo r = c.info();
        if (r.name().isEmpty()) {
            ObjectNode body = objectBody(c);
            if (c.type().resource().equals("selfsubjectaccessreviews")) {
                return Response.of(201, selfSubjectAccessReview(c.user(), body));
            }
            if (c.type().resource().equals("selfsubjectrulesreviews")) {
                return Response.of(201, rulesReviews.answer(c.user(), body));
            }
            WriteOptions o = c.writeOptions();
            return Response.of(201, registry.create(c.type(), r.namespace(), body, o)).withWarnings(o.warnings());
        }
        if (r.subresource().equals("token")) {
            return Response.of(201, tokenRequest(c));
        }
        if (r.subresource().equals("eviction")) {
            registry.evict(c.type(), r.namespace(), r.name(), objectBody(c), c.dryRun());
            ObjectNode ok = JSON.objectNode();
            ok.put("kind", "Status");
            ok.put("apiVersion", "v1");
            ok.putObject("metadata");
            ok.put("status", "Success");
            ok.put("code", 201);
            return Response.of(201, ok);
        }
        throw ApiError.of(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", null);
    }

    private Response update(Call c) {
        RequestInfo r = c.info();
        WriteOptions o = c.writeOptions();
        ObjectNode body = objectBody(c);
        if (r.subresource().equals("scale")) {
            return Response.of(200, registry.updateScale(c.type(), r.namespace(), r.name(), body, o));
        }
        return Response.of(200, registry.update(c.type(), r.namespace(), r.name(), r.subresource(), body, o)).withWarnings(o.warnings());
    }

    private Response patch(Call c) {
        RequestInfo r = c.info();
        Patches.Type type = Patches.Type.fromContentType(c.contentType());
        if (type == null) {
            throw ApiError.of(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "
                    + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, "
                    + "application/strategic-merge-patch+json", null);
        }
        WriteOptions o = c.writeOptions();
        JsonNode patch = type == Patches.Type.APPLY ? BodyCodec.parseYaml(c.body()) : BodyCodec.parse(c.body());
        if (r.subresource().equals("scale")) {
            return Response.of(200, registry.patchScale(c.type(), r.namespace(), r.name(), type, patch, o));
        }
        Registry.Written w = registry.patch(c.type(), r.namespace(), r.name(), r.subresource(), type, patch, o);
        return Response.of(w.created() ? 201 : 200, w.object()).withWarnings(o.warnings());
    }

    private Response delete(Call c) {
        RequestInfo r = c.info();
        DeleteOptions d = deleteOptions(c);
        Registry.Deleted del = registry.delete(c.type(), r.namespace(), r.name(), d);
        int code = !del.gone() && Boolean.FALSE.equals(d.orphanDependents()) ? 202 : 200;
        if (del.gone() && !c.type().returnsDeletedObject()) {
            return Response.of(code, success(c.type(), del.object()));
        }
        return Response.of(code, del.object());
    }

    private Response deleteCollection(Call c) {
        ResourceType t = c.type();
        Predicate<JsonNode> labels = Selector.labels(c.query().get("labelSelector"));
        Predicate<JsonNode> fields = Selector.fields(t, c.query().get("fieldSelector"));
        DeleteOptions d = deleteOptions(c);
        List<ObjectNode> victims = registry.store().list(t, c.info().namespace()).stream()
                .filter(o -> labels.test(o) && fields.test(o)).toList();
        ObjectNode list = JSON.objectNode();
        list.put("kind", t.kind() + "List");
        list.put("apiVersion", t.apiVersion());
        list.putObject("metadata").put("resourceVersion", Long.toString(registry.store().resourceVersion()));
        var items = list.putArray("items");
        for (ObjectNode v : victims) {
            items.add(registry.delete(t, c.info().namespace(), v.path("metadata").path("name").asText(), d).object());
        }
        return Response.of(200, list);
    }

    /** As delete.go reads them: the body when there is one (the query is then ignored), else the query. */
    private static DeleteOptions deleteOptions(Call c) {
        return DeleteOptions.ofRequest(c.body().length == 0 ? null : BodyCodec.parse(c.body()), c.query());
    }

    /**
     * serviceaccounts/NAME/token (kubectl create token), as pkg/registry/core/serviceaccount/storage/token.go
     * answers it: the ServiceAccount must exist; a new token each request, for the requested audiences (else
     * the server's, here kind's "https://kubernetes.default.svc.cluster.local") and expirationSeconds (default
     * 3600, SetDefaults_TokenRequestSpec; at least 600 and at most 2^32, pkg/apis/authentication/validation),
     * refused by the authenticator once expired. Authorised by RBAC (create serviceaccounts/token) like any
     * other request. Bound object references are not modelled; the token is opaque, not a signed JWT.
     */
    private ObjectNode tokenRequest(Call c) {
        RequestInfo r = c.info();
        ObjectNode body = c.body().length == 0 ? JSON.objectNode() : objectBody(c);
        JsonNode asked = body.path("spec").path("expirationSeconds");
        long seconds = asked.isMissingNode() || asked.isNull() ? 3600 : asked.asLong();
        if (seconds < 600 || seconds > (1L << 32)) {
            // the TokenRequest itself has no name: `TokenRequest.authentication.k8s.io "" is invalid` (a real server's answer)
            throw ApiError.invalid("authentication.k8s.io", "TokenRequest", "", List.of(new ApiError.Cause("FieldValueInvalid",
                    "Invalid value: " + seconds + ": " + (seconds < 600 ? "may not specify a duration less than 10 minutes"
                            : "may not specify a duration larger than 2^32 seconds"), "spec.expirationSeconds")));
        }
        registry.get(registry.catalog().byResource("", "serviceaccounts").orElseThrow(), r.namespace(), r.name());
        ObjectNode tr = JSON.objectNode();
        tr.put("kind", "TokenRequest");
        tr.put("apiVersion", "authentication.k8s.io/v1");
        tr.putObject("metadata").put("name", r.name()).put("namespace", r.namespace()).putNull("creationTimestamp");
        ObjectNode spec = tr.putObject("spec");
        JsonNode audiences = body.path("spec").path("audiences");
        if (audiences.isArray() && !audiences.isEmpty()) {
            spec.set("audiences", audiences.deepCopy());
        } else {
            spec.putArray("audiences").add("https://kubernetes.default.svc.cluster.local");
        }
        spec.put("expirationSeconds", seconds);
        spec.putNull("boundObjectRef");
        Instant expiry = Instant.now().plusSeconds(seconds).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        ObjectNode status = tr.putObject("status");
        status.put("token", tokens.request(r.namespace(), r.name(), expiry));
        status.put("expirationTimestamp", expiry.toString());
        return tr;
    }

    /** The Success Status a DELETE answers when the object is gone and its kind does not return it. */
    private static ObjectNode success(ResourceType t, ObjectNode gone) {
        ObjectNode s = JSON.objectNode();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Success");
        ObjectNode d = s.putObject("details");
        d.put("name", gone.path("metadata").path("name").asText());
        if (!t.group().isEmpty()) {
            d.put("group", t.group());
        }
        d.put("kind", t.resource());
        d.put("uid", gone.path("metadata").path("uid").asText());
        return s;
    }

    /** authorization.k8s.io/v1 SelfSubjectAccessReview: the same authorizer, asked about spec.resourceAttributes. */
    private ObjectNode selfSubjectAccessReview(User user, ObjectNode review) {
        JsonNode a = review.path("spec").path("resourceAttributes");
        RequestInfo asked;
        if (a.isMissingNode()) {
            JsonNode nr = review.path("spec").path("nonResourceAttributes");
            asked = RequestInfo.nonResource(nr.path("verb").asText(""), nr.path("path").asText(""));
        } else {
            asked = new RequestInfo(true, a.path("verb").asText(""), a.path("group").asText(""), a.path("version").asText(""),
                    a.path("resource").asText(""), a.path("subresource").asText(""), a.path("namespace").asText(""),
                    a.path("name").asText(""), "");
        }
        Authorizer.Decision d = authorizer.authorize(user, asked);
        ObjectNode out = review.deepCopy();
        out.put("kind", "SelfSubjectAccessReview");
        out.put("apiVersion", "authorization.k8s.io/v1");
        out.putObject("metadata").putNull("creationTimestamp");
        ObjectNode status = out.putObject("status");
        status.put("allowed", d.allowed());
        if (!d.reason().isEmpty()) {
            status.put("reason", d.reason());
        }
        return out;
    }

    private static ObjectNode objectBody(Call c) {
        if (ProtobufBodies.isProtobuf(c.contentType())) {
            return ProtobufBodies.decode(c.body());
        }
        JsonNode n = BodyCodec.parse(c.body());
        if (!(n instanceof ObjectNode o)) {
            throw ApiError.of(400, "BadRequest", "the body of the request must be a JSON object", null);
        }
        return o;
    }

    private static long parseLong(String s) {
        if (s == null || s.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw ApiError.of(400, "BadRequest", "invalid limit: " + s, null);
        }
    }

    static ApiError notFoundPath() {
        return ApiError.of(404, "NotFound", "the server could not find the requested resource", null);
    }
}
