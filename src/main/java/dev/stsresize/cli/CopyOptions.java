package dev.stsresize.cli;

import dev.stsresize.manifest.ApiNames;
import dev.stsresize.plan.CopyOptIn;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The opt-in to the copy migration ({@code @Mixin} of {@code plan}, {@code apply} and {@code ui}): where a claim's class
 * cannot grow in place, copy it to a bigger volume of the same name, one pod at a time (docs/design.md, "The copy
 * migration"). Never assumed: {@code --copy-class} and {@code --copy-image} alone are refused, naming {@code --copy}.
 */
public final class CopyOptions {
    @Option(names = "--copy",
            description = "Where a claim's StorageClass cannot grow it in place, copy it to a bigger volume of the same name instead:"
                    + " one pod at a time, each down from its eviction until its copy, rebind and restart end; the old volumes are"
                    + " kept (Retain). ReadWriteMany and Block claims are refused.")
    boolean copy;

    @Option(names = "--copy-class", paramLabel = "CLASS",
            description = "With --copy: the StorageClass of the new volumes. Default: each claim's own class.")
    String copyClass;

    @Option(names = "--copy-image", paramLabel = "IMAGE",
            description = "With --copy: the copy pod's image; it needs sh, cp, find, stat and sha256sum. Default: "
                    + CopyOptIn.DEFAULT_IMAGE + ".")
    String copyImage;

    /** The flags alone, before anything is read: one sentence naming the flag and the fix. */
    void validate(CommandSpec spec) {
        if (!copy && (copyClass != null || copyImage != null)) {
            String given = copyClass != null ? "--copy-class" : "--copy-image";
            throw new ParameterException(spec.commandLine(), given + " is for the copy migration, which only --copy turns on:"
                    + " add --copy, or leave " + given + " out.");
        }
        if (copyClass != null) {
            List<String> errors = ApiNames.subdomainErrors(copyClass);
            if (!errors.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--copy-class takes a StorageClass name, not \"" + copyClass + "\": "
                        + String.join("; ", errors) + ".");
            }
        }
        if (copyImage != null && (copyImage.isEmpty() || copyImage.chars().anyMatch(Character::isWhitespace))) {
            throw new ParameterException(spec.commandLine(), "--copy-image takes an image reference without spaces, like "
                    + CopyOptIn.DEFAULT_IMAGE + ", not \"" + copyImage + "\".");
        }
    }

    /** The operator's choice, for the decision and the converge; {@link CopyOptIn#NONE} without {@code --copy}. */
    CopyOptIn optIn() {
        return copy ? new CopyOptIn(true, Optional.ofNullable(copyClass), copyImage == null ? CopyOptIn.DEFAULT_IMAGE : copyImage)
                : CopyOptIn.NONE;
    }
}
