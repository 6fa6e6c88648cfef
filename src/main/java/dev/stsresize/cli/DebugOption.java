package dev.stsresize.cli;

import picocli.CommandLine.Option;

/**
 * {@code --debug}, accepted by every command that can fail with a stack trace ({@code @Mixin}). {@link Cli}
 * reads it from the raw arguments, before parsing, so that a parse error is traced too.
 */
public final class DebugOption {
    @Option(names = "--debug", hidden = true, description = "Stack traces on errors.")
    boolean debug;
}
