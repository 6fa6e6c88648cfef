package dev.stsresize.sim.controller;

/**
 * How long the simulated cluster's components take, in milliseconds. {@link #FAST} keeps whole
 * test scenarios well under a second; {@link #REALISTIC} is paced like the reference cluster so a
 * person can watch it (claims within ~0.15 s, adoption ~0.3 s, orphan delete ~0.3 s, pods seconds, a file
 * system grown online some seconds after its volume: the kubelet notices on the pod's next sync).
 *
 * <p>The garbage collector always reacts after the StatefulSet controller: the reference's orphan
 * delete shows the controller's status write (second MODIFIED) before the DELETED.
 */
public record Timings(long controllerMillis, long gcMillis, long scheduleMillis, long startMillis, long readyMillis,
        long maxGraceMillis, long provisionMillis, long resizeMillis, long nodeExpandMillis, long retryMillis) {

    public static final Timings FAST = new Timings(0, 2, 1, 2, 2, 5, 2, 3, 3, 5);
    public static final Timings REALISTIC = new Timings(150, 300, 400, 1500, 2000, 3000, 1200, 1500, 8000, 250);

    /** How long a pod with {@code terminationGracePeriodSeconds} takes to go: the grace period, capped. */
    public long graceMillis(long graceSeconds) {
        return Math.min(Math.max(graceSeconds, 0) * 1000, maxGraceMillis);
    }
}
