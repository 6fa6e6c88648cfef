package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import java.util.List;

/**
 * Decisions and claims as values, for a unit test of what the assessment adds to a decision: StatefulSet shop/db, template
 * "data", claims of class "fast" unless named otherwise, a plan with the warning {@link #WARNING} and the detail {@link
 * #DETAIL}.
 */
final class DecisionValues {
    static final String WARNING = "replicas carried over";
    static final String DETAIL = "data 10Gi -> 20Gi";

    private DecisionValues() {}

    /** Claim {@code name} of class "fast", Bound, with the request and capacity given ("" for none); {@code grow}: the run patches it. */
    static ClaimState claim(String name, String request, String capacity, String target, boolean grow) {
        return claimOf("fast", name, request, capacity, target, grow);
    }

    static ClaimState claimOf(String storageClass, String name, String request, String capacity, String target, boolean grow) {
        int ordinal = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        return new ClaimState(name, "data", ordinal, Quantity.parseOrNull(request), Quantity.parseOrNull(capacity), "Bound", storageClass,
                true, Quantity.parse(target), false, grow);
    }

    static Plan plan(Verdict verdict, ClaimState... claims) {
        return plan("shop", verdict, claims);
    }

    static Plan plan(String namespace, Verdict verdict, ClaimState... claims) {
        return new Plan(namespace, "db", verdict, List.of(new TemplateSize("data", Quantity.parse("10Gi"), Quantity.parse("20Gi"))),
                List.of(claims), List.of(WARNING), DETAIL);
    }

    /** The claim object of shop/{@code name} (uid "uid-{@code name}"), its status and annotations as JSON members ("" for none). */
    static ObjectNode pvc(String name, String status, String annotations) {
        return MemoryCluster.json("{'kind':'PersistentVolumeClaim','metadata':{'namespace':'shop','name':'" + name + "','uid':'uid-" + name
                + "','annotations':{" + annotations + "}},'spec':{'resources':{'requests':{'storage':'20Gi'}}},'status':{" + status + "}}");
    }
}
