package dev.stsresize.cli;

import dev.stsresize.UserError;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --live}: decide against captured cluster states instead of the cluster ({@code @Mixin} of
 * {@code plan} and {@code ui}), the output of {@code kubectl get sts,controllerrevisions,pvc,pv,sc,csidrivers,pods -A -o yaml}.
 */
public final class LiveOptions {
    @Option(names = "--live", paramLabel = "SNAPSHOT",
            description = "Offline: a captured cluster state instead of the cluster (kubectl get sts,controllerrevisions,pvc,pv,sc,csidrivers,pods"
                    + " -A -o yaml): a file, a directory, or - for stdin. Nothing is written. Repeatable.")
    List<String> snapshots = new ArrayList<>();

    /** Whether the command reads snapshots instead of asking a cluster. */
    boolean offline() {
        return !snapshots.isEmpty();
    }

    /** Before anything is read: each snapshot exists, and standard input is asked for once at the most. */
    void validate(ManifestOptions manifest) {
        dev.stsresize.manifest.Inputs.checkPaths(snapshots, "--live");
        if (manifest.readsStdin() && snapshots.contains("-")) {
            throw new UserError("-f - and --live - both ask for standard input, which can be read only once. Pass one of them as a file.");
        }
    }
}
