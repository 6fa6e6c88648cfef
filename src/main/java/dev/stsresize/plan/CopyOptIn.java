package dev.stsresize.plan;

import java.util.Optional;

/**
 * The operator's opt-in to the copy migration ({@code --copy}): a claim whose class cannot grow in place is copied to
 * a bigger volume of the same name, one pod at a time (docs/design.md, "The copy migration"). Never assumed: without
 * it, such a claim is refused as before, and the refusal says a copy is possible.
 *
 * @param chosen the operator asked for the copy
 * @param copyClass {@code --copy-class}: the class of the new volumes; empty means each claim's own class
 * @param image {@code --copy-image}: the copy pod's image; it needs sh, cp, find, stat and sha256sum (busybox has them)
 */
public record CopyOptIn(boolean chosen, Optional<String> copyClass, String image) {
    /** busybox: sh, {@code cp -a} (which, unlike its tar, restores directory times), find, stat and sha256sum in one static binary. */
    public static final String DEFAULT_IMAGE = "busybox:1.36.1";

    /** No copy: what every run does unless the operator asks. */
    public static final CopyOptIn NONE = new CopyOptIn(false, Optional.empty(), DEFAULT_IMAGE);

    public CopyOptIn {
        copyClass = copyClass == null ? Optional.empty() : copyClass;
        image = image == null || image.isBlank() ? DEFAULT_IMAGE : image;
    }

    /** The opt-in with the default image and each claim's own class. */
    public static CopyOptIn withDefaults() {
        return new CopyOptIn(true, Optional.empty(), DEFAULT_IMAGE);
    }

    /** The class of the new volume of a claim of class {@code claimClass}. */
    public String classFor(String claimClass) {
        return copyClass.orElse(claimClass);
    }
}
