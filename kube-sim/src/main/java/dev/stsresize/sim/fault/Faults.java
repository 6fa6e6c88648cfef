package dev.stsresize.sim.fault;

import dev.stsresize.sim.request.RequestInfo;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The fault rules in force; the first rule that fires for a request decides. */
public final class Faults {
    private final List<FaultRule> rules = new CopyOnWriteArrayList<>();

    public FaultRule add(FaultRule rule) {
        rules.add(rule);
        return rule;
    }

    public void clear() {
        rules.clear();
    }

    public Fault match(RequestInfo r) {
        for (FaultRule rule : rules) {
            Fault f = rule.match(r);
            if (f != null) {
                return f;
            }
        }
        return null;
    }
}
