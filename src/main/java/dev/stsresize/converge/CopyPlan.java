package dev.stsresize.converge;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A copy's writes in the order the copy makes them (docs/design.md, "The copy migration", C1 to C8), as the operator
 * reads them before the first: apply's "Writes to come" and the wizard's diff say the same. They are sentences, not
 * kubectl commands: the volumes' names are known only once each temporary claim is bound, and the wizard shows each
 * command as it is sent.
 */
public final class CopyPlan {
    /** One line of the plan: a step, or one claim the step before it copies. */
    public record Line(String text, boolean claim) {}

    private CopyPlan() {}

    /** The plan of {@code d}'s copy with the image and classes of {@code copy}; none when {@code d} copies nothing. */
    public static List<Line> of(Decision d, CopyOptIn copy) {
        List<ClaimState> toCopy = d.claimsToCopy();
        if (toCopy.isEmpty()) {
            return List.of();
        }
        List<Line> out = new ArrayList<>();
        out.add(new Line("before the first copy: the PersistentVolume of each claim to copy set to reclaim policy Retain (its"
                + " policy recorded)", false));
        out.add(new Line("then one pod at a time, highest ordinal first, the others serving: orphan-delete StatefulSet " + d.name()
                + " (UID precondition), evict the pod, create a temporary claim at the target size, run a copy pod (image "
                + copy.image() + ") that copies and compares both sides, set the new volume to Retain, delete the copy pod and"
                + " the temporary claim, re-point the new volume at the claim's name, delete the original claim (UID"
                + " precondition; its volume kept, Retain), create the claim on the new volume, re-apply the StatefulSet and"
                + " wait for the pod to be Ready:", false));
        toCopy.stream().sorted(Comparator.comparingInt(ClaimState::ordinal).reversed()).forEach(c -> out.add(new Line("claim "
                + c.name() + " " + c.request() + " -> " + c.target() + " on a new volume of class " + copy.classFor(c.storageClass())
                + (c.scaledAway() ? " (scaled-away ordinal: no pod to evict)" : ""), true)));
        out.add(new Line("the new volumes' reclaim policy set back to their class's", false));
        out.add(new Line("the old volumes are kept (Released, Retain), never deleted: the result names them and how to free them",
                false));
        return out;
    }
}
