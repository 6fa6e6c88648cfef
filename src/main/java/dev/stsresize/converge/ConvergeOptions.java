package dev.stsresize.converge;

import dev.stsresize.plan.CopyOptIn;
import java.time.Duration;
import java.util.Optional;

/**
 * How to converge.
 *
 * @param dryRun {@code --dry-run=server}: every check and dry run, no write
 * @param waitForResize wait for each claim's capacity (or FileSystemResizePending) before the delete
 * @param timeout how long the whole wait for resizes (and, after, adoption) may take
 * @param restartPodsForResize evict the pods whose volumes wait for a file system resize, one at a time
 * @param fieldManager {@code --field-manager}, else the manager that owned {@code spec.template}
 * @param takeOver take over a Lease whose holder stopped renewing it
 * @param leaseDuration the Lease's duration; renewed every third of it
 * @param fsTimeout how long, after the re-apply or the claims-only grow, the run follows the file systems the
 *     kubelet grows online ({@code --fs-timeout})
 * @param copy the opt-in to the copy migration ({@code --copy}, {@code --copy-class}, {@code --copy-image})
 */
public record ConvergeOptions(boolean dryRun, boolean waitForResize, Duration timeout, boolean restartPodsForResize,
        Optional<String> fieldManager, boolean takeOver, Duration leaseDuration, Duration fsTimeout, CopyOptIn copy) {

    public ConvergeOptions {
        copy = copy == null ? CopyOptIn.NONE : copy;
    }

    public ConvergeOptions(boolean dryRun, boolean waitForResize, Duration timeout, boolean restartPodsForResize,
            Optional<String> fieldManager, boolean takeOver, Duration leaseDuration, Duration fsTimeout) {
        this(dryRun, waitForResize, timeout, restartPodsForResize, fieldManager, takeOver, leaseDuration, fsTimeout, CopyOptIn.NONE);
    }

    /** The kubelet grows a mounted file system on the pod's next sync: seconds, a minute at worst. */
    public static final Duration FS_TIMEOUT = Duration.ofMinutes(2);

    public ConvergeOptions(boolean dryRun, boolean waitForResize, Duration timeout, boolean restartPodsForResize,
            Optional<String> fieldManager, boolean takeOver, Duration leaseDuration) {
        this(dryRun, waitForResize, timeout, restartPodsForResize, fieldManager, takeOver, leaseDuration, FS_TIMEOUT);
    }

    public static ConvergeOptions defaults() {
        return new ConvergeOptions(false, true, Duration.ofMinutes(10), false, Optional.empty(), false, Duration.ofSeconds(60));
    }

    public ConvergeOptions withFsTimeout(Duration d) {
        return new ConvergeOptions(dryRun, waitForResize, timeout, restartPodsForResize, fieldManager, takeOver, leaseDuration, d, copy);
    }

    public ConvergeOptions withDryRun(boolean b) {
        return new ConvergeOptions(b, waitForResize, timeout, restartPodsForResize, fieldManager, takeOver, leaseDuration, fsTimeout, copy);
    }

    public ConvergeOptions withWaitForResize(boolean b) {
        return new ConvergeOptions(dryRun, b, timeout, restartPodsForResize, fieldManager, takeOver, leaseDuration, fsTimeout, copy);
    }

    public ConvergeOptions withTimeout(Duration d) {
        return new ConvergeOptions(dryRun, waitForResize, d, restartPodsForResize, fieldManager, takeOver, leaseDuration, fsTimeout, copy);
    }

    public ConvergeOptions withRestartPodsForResize(boolean b) {
        return new ConvergeOptions(dryRun, waitForResize, timeout, b, fieldManager, takeOver, leaseDuration, fsTimeout, copy);
    }

    public ConvergeOptions withFieldManager(String m) {
        return new ConvergeOptions(dryRun, waitForResize, timeout, restartPodsForResize, Optional.ofNullable(m), takeOver, leaseDuration, fsTimeout, copy);
    }

    public ConvergeOptions withTakeOver(boolean b) {
        return new ConvergeOptions(dryRun, waitForResize, timeout, restartPodsForResize, fieldManager, b, leaseDuration, fsTimeout, copy);
    }

    public ConvergeOptions withLeaseDuration(Duration d) {
        return new ConvergeOptions(dryRun, waitForResize, timeout, restartPodsForResize, fieldManager, takeOver, d, fsTimeout, copy);
    }

    public ConvergeOptions withCopy(CopyOptIn c) {
        return new ConvergeOptions(dryRun, waitForResize, timeout, restartPodsForResize, fieldManager, takeOver, leaseDuration, fsTimeout, c);
    }
}
