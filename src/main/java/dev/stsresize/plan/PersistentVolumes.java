package dev.stsresize.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * The cluster's PersistentVolumes as far as a copy to a {@code kubernetes.io/no-provisioner} class needs them: such a
 * class makes no volume, so each claim copied into it needs an Available one. They are listed only then, so a run
 * without such a copy sends no request for them.
 *
 * @param listed true when the LIST was answered
 * @param items the volumes listed (none unless {@code listed})
 * @param unreadable why they could not be read (the server's 403 message), when asked and refused
 */
public record PersistentVolumes(boolean listed, List<ObjectNode> items, Optional<String> unreadable) {
    public PersistentVolumes {
        items = List.copyOf(items);
        unreadable = unreadable == null ? Optional.empty() : unreadable;
    }

    /** Not asked: no claim is copied into a no-provisioner class. */
    public static final PersistentVolumes NOT_READ = new PersistentVolumes(false, List.of(), Optional.empty());

    public static PersistentVolumes of(List<ObjectNode> items) {
        return new PersistentVolumes(true, items, Optional.empty());
    }

    public static PersistentVolumes unreadable(String why) {
        return new PersistentVolumes(false, List.of(), Optional.of(why));
    }
}
