package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;

/**
 * What one resource does differently when it is written: the hooks of kube-apiserver's
 * RESTCreateStrategy, RESTUpdateStrategy and the status strategies (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go,
 * update.go; one per resource in pkg/registry/GROUP/RESOURCE/strategy.go). The registry runs them in
 * rest.BeforeCreate's and rest.BeforeUpdate's order; every hook has the generic behaviour as its default, so
 * a resource's strategy overrides only what differs, and {@link Strategies} maps resources to strategies.
 *
 * <p>The validation hooks return field errors ({@code ApiError.Cause}) instead of throwing, because the real
 * server gathers them into stages that each answer one 422: names, then object size and content, then labels
 * and spec.
 */
public interface Strategy {
    /**
     * PrepareForCreate: what a client may not set. Status belongs to the controllers, so a resource with a
     * status subresource starts without the one the client sent.
     */
    default void prepareForCreate(ResourceType t, ObjectNode obj) {
        if (t.hasStatus()) {
            obj.remove("status");
        }
    }

    /**
     * PrepareForUpdate of the main resource: status can only change through the status subresource, so the
     * stored status is kept whatever the body says (e.g. statefulset/strategy.go: {@code newStatefulSet.Status = oldStatefulSet.Status}).
     */
    default void prepareForUpdate(ResourceType t, ObjectNode next, ObjectNode old) {
        if (t.hasStatus()) {
            keepStatus(next, old);
        }
    }

    /**
     * The status strategy's PrepareForUpdate with ResetObjectMetaForStatus: a write to the status subresource
     * changes status only (e.g. persistentvolumeclaim/strategy.go: {@code newPvc.Spec = oldPvc.Spec}); of the
     * metadata only the resourceVersion precondition and managedFields come from the body.
     */
    default ObjectNode prepareForStatusUpdate(ObjectNode body, ObjectNode old) {
        ObjectNode next = old.deepCopy();
        if (body.has("status")) {
            next.set("status", body.get("status"));
        } else {
            next.remove("status");
        }
        copyMeta(body, next, "resourceVersion");
        copyMeta(body, next, "managedFields");
        return next;
    }

    /**
     * The zero status a new object reads back with. PrepareForCreate sets it in Go; here it is set after
     * managedFields are recorded, because the real field manager runs in the handler, before the strategy, and so
     * never sees it.
     */
    default void initialStatus(ObjectNode obj) {}

    /** The group a 422 about the object's names is given (an Event's errors name it without one). */
    default String nameErrorGroup(ResourceType t) {
        return t.group();
    }

    /** Validate's ValidateObjectMeta: the names by the resource's name function (most use NameIsDNSSubdomain). */
    default List<ApiError.Cause> validateNames(ResourceType t, ObjectNode obj) {
        return ObjectMetaValidation.names(obj, t.namespaced(), ObjectMetaValidation.DNS_SUBDOMAIN);
    }

    /** Limits on what the object carries beyond its annotations (a Secret's data); {@code old} is null on create. */
    default List<ApiError.Cause> validateContent(ObjectNode old, ObjectNode obj) {
        return List.of();
    }

    /** Validate's spec checks on create. */
    default List<ApiError.Cause> validateSpec(ObjectNode obj) {
        return List.of();
    }

    /** ValidateUpdate's re-check of the new spec: what a stored object may newly break. */
    default List<ApiError.Cause> validateSpecUpdate(ObjectNode obj) {
        return List.of();
    }

    /** ValidateUpdate's rules on the change itself (immutable fields); throws the 422. */
    default void validateUpdate(ObjectNode next, ObjectNode old) {}

    /** rest.RESTGracefulDeleteStrategy: whether a delete waits out a grace period while a kubelet runs. */
    default boolean gracefulDelete() {
        return false;
    }

    private static void keepStatus(ObjectNode next, ObjectNode old) {
        if (old.has("status")) {
            next.set("status", old.get("status"));
        } else {
            next.remove("status");
        }
    }

    private static void copyMeta(ObjectNode from, ObjectNode to, String field) {
        JsonNode v = from.path("metadata").get(field);
        if (v != null) {
            to.withObject("/metadata").set(field, v);
        }
    }
}
