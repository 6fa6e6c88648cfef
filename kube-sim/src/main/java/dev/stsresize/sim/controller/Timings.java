package dev.stsresize.sim.controller;

/**
 * How long the simulated cluster's components take, in milliseconds. {@link #FAST} keeps whole
 * test scenarios well under a second; {@link #REALISTIC} is paced like the reference cluster so a
 * person can watch it (claims within ~0.15 s, adoption ~0.3 s, orphan delete ~0.3 s, pods seconds, a file
 * system grown online some seconds after its volume: the kubelet notices on the pod's next sync).
 *
 * <p>The garbage collector always reacts after the StatefulSet controller: the reference's orphan
 * delete shows the controller's status write (second MODIFIED) before the DELETED.
 *
 * <p>{@code claimBoundLagMillis}: a claim pre-bound by the user ({@code spec.volumeName}) shows Bound this long
 * after its PV does. On a real node the binder's status write of such a claim meets a 409 and is done at the
 * controller's next resync (every 15 s), so the claim trails its PV by up to 15 s; REALISTIC takes the middle
 * of that, FAST enough for a test to tell a client that waits for the PV from one that waits for the claim.
 * {@code copyMillis}: how long a copy pod's container runs (stsresize's copy script).
 */
public record Timings(long controllerMillis, long gcMillis, long scheduleMillis, long startMillis, long readyMillis,
        long maxGraceMillis, long provisionMillis, long resizeMillis, long nodeExpandMillis, long retryMillis,
        long claimBoundLagMillis, long copyMillis) {

    public static final Timings FAST = new Timings(0, 2, 1, 2, 2, 5, 2, 3, 3, 5, 150, 6);
    public static final Timings REALISTIC = new Timings(150, 300, 400, 1500, 2000, 3000, 1200, 1500, 8000, 250, 7500, 4000);

    /** The pace of the first ten components, with FAST's claim lag and copy time. */
    public Timings(long controllerMillis, long gcMillis, long scheduleMillis, long startMillis, long readyMillis,
            long maxGraceMillis, long provisionMillis, long resizeMillis, long nodeExpandMillis, long retryMillis) {
        this(controllerMillis, gcMillis, scheduleMillis, startMillis, readyMillis, maxGraceMillis, provisionMillis, resizeMillis,
                nodeExpandMillis, retryMillis, 150, 6);
    }

    /** How long a pod with {@code terminationGracePeriodSeconds} takes to go: the grace period, capped. */
    public long graceMillis(long graceSeconds) {
        return Math.min(Math.max(graceSeconds, 0) * 1000, maxGraceMillis);
    }
}
