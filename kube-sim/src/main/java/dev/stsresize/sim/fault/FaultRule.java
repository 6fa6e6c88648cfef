package dev.stsresize.sim.fault;

import dev.stsresize.sim.request.RequestInfo;
import java.util.Random;

/**
 * When a fault fires: requests matching verb, resource (or "resource/subresource") and name (null =
 * any), on the nth matching occurrence only (1-based; 0 = every one), or with a seeded probability,
 * at most {@code times} times (0 = unlimited).
 */
public final class FaultRule {
    private final String verb;
    private final String resource;
    private final String name;
    private final int nth;
    private final double probability;
    private final Random random;
    private final int times;
    private final Fault fault;
    private int seen;
    private int fired;

    private FaultRule(String verb, String resource, String name, int nth, double probability, long seed, int times, Fault fault) {
        this.verb = verb;
        this.resource = resource;
        this.name = name;
        this.nth = nth;
        this.probability = probability;
        this.random = new Random(seed);
        this.times = times;
        this.fault = fault;
    }

    /** Every matching request. */
    public static FaultRule on(String verb, String resource, String name, Fault fault) {
        return new FaultRule(verb, resource, name, 0, 1.0, 0, 0, fault);
    }

    /** Only the nth matching request (1-based). */
    public static FaultRule onNth(String verb, String resource, String name, int nth, Fault fault) {
        return new FaultRule(verb, resource, name, nth, 1.0, 0, 0, fault);
    }

    /** Each matching request with probability p, reproducibly from the seed. */
    public static FaultRule withProbability(String verb, String resource, String name, double p, long seed, Fault fault) {
        return new FaultRule(verb, resource, name, 0, p, seed, 0, fault);
    }

    public FaultRule times(int n) {
        return new FaultRule(verb, resource, name, nth, probability, 0, n, fault);
    }

    synchronized Fault match(RequestInfo r) {
        if (verb != null && !verb.equals(r.verb())) {
            return null;
        }
        if (resource != null && !resource.equals(r.resource()) && !resource.equals(r.resourceAndSub())) {
            return null;
        }
        if (name != null && !name.equals(r.name())) {
            return null;
        }
        seen++;
        if (times > 0 && fired >= times) {
            return null;
        }
        if (nth > 0 && seen != nth) {
            return null;
        }
        if (probability < 1.0 && random.nextDouble() >= probability) {
            return null;
        }
        fired++;
        return fault;
    }

    public synchronized int fired() {
        return fired;
    }
}
