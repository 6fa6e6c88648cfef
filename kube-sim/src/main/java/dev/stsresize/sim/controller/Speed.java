package dev.stsresize.sim.controller;

/** The two paces of the simulated cluster: {@code fast} for tests and scripts, {@code realistic} for people. */
public enum Speed {
    fast(Timings.FAST), realistic(Timings.REALISTIC);

    private final Timings timings;

    Speed(Timings timings) {
        this.timings = timings;
    }

    public Timings timings() {
        return timings;
    }
}
