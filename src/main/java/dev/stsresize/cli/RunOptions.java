package dev.stsresize.cli;

import dev.stsresize.converge.ConvergeOptions;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The flags of a run that converges, shared by {@code apply} and {@code resume} ({@code @Mixin}). */
public final class RunOptions {
    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10m0s", converter = ConnectionOptions.DurationConverter.class,
            description = "How long to wait for the resizes and the adoption. Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(names = "--take-over", description = "Take over the Lease of a run that stopped renewing it.")
    boolean takeOver;

    @Option(names = "--fs-timeout", paramLabel = "DURATION", defaultValue = "2m0s", converter = ConnectionOptions.DurationConverter.class,
            description = "How long, after the re-apply, to wait for the kubelet to grow each file system online (then its claim"
                    + " says pending). Default: ${DEFAULT-VALUE}.")
    Duration fsTimeout;

    /** The validate step: a run needs time to wait in. */
    void validate(CommandSpec spec) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--timeout must be above zero, like 10m0s or 30m0s: it bounds the wait"
                    + " for the resizes and the adoption.");
        }
        if (fsTimeout.isZero() || fsTimeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--fs-timeout must be above zero, like 2m0s or 30s: it bounds the wait"
                    + " for the kubelet to grow each file system after the re-apply.");
        }
    }

    /** The defaults with these flags. */
    ConvergeOptions convergeOptions() {
        return ConvergeOptions.defaults().withTimeout(timeout).withTakeOver(takeOver).withFsTimeout(fsTimeout);
    }
}
