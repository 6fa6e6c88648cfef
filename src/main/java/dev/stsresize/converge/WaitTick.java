package dev.stsresize.converge;

import java.time.Duration;
import java.util.List;

/**
 * A wait of the converge, as it stands: sent by the {@link Waiter} at least every {@link Waiter#TICK}
 * and whenever the awaited object changes, for a view to say what the run waits for.
 *
 * @param what what the wait is for, in words ("capacity of claim data-db-0 to reach 20Gi")
 * @param elapsed since the wait began
 * @param left until its deadline
 * @param claims each claim of the run as last read, with its latest condition (empty when the wait reads none)
 */
public record WaitTick(String namespace, String name, Phase step, String what, Duration elapsed, Duration left,
        List<ClaimGrower.ClaimStatus> claims) {
    public WaitTick {
        claims = List.copyOf(claims);
    }
}
