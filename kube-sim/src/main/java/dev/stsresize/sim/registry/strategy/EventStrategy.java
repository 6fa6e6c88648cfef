package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;
import java.util.function.Function;

/**
 * pkg/registry/core/event/strategy.go with pkg/apis/core/validation/events.go ValidateEventCreate: a core v1
 * Event gets the legacy checks only, an events.k8s.io/v1 one also the strict ones. An Event is core's internal
 * type in both groups (pkg/apis/events/register.go), so its errors name the kind "Event" unqualified: a real
 * server answered {@code The Event "probe2.b4gm7" is invalid}.
 */
final class EventStrategy implements Strategy {
    static final EventStrategy LEGACY = new EventStrategy(ObjectMetaValidation::legacyEvent);
    static final EventStrategy STRICT = new EventStrategy(ObjectMetaValidation::strictEvent);

    private final Function<ObjectNode, List<ApiError.Cause>> checks;

    private EventStrategy(Function<ObjectNode, List<ApiError.Cause>> checks) {
        this.checks = checks;
    }

    @Override
    public String nameErrorGroup(ResourceType t) {
        return "";
    }

    @Override
    public List<ApiError.Cause> validateNames(ResourceType t, ObjectNode obj) {
        return checks.apply(obj);
    }
}
