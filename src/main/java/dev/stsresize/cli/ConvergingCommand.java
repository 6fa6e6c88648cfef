package dev.stsresize.cli;

import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.StopRequest;
import java.util.Optional;
import java.util.function.Supplier;

/** What {@code apply} and {@code resume}, the commands that converge, are given beyond their flags. */
abstract class ConvergingCommand {
    /** The process's surroundings: variables, stdin, console. */
    final Environment environment;
    /** How the operator is asked; empty when there is no terminal to ask on. */
    final Supplier<Optional<Prompter>> prompter;
    /** Called after every write of a converge (crash tests); {@link Checkpoint#NONE} otherwise. */
    final Checkpoint checkpoint;
    /** Set on a signal: each run stops at its next safe point with its record kept, its result saying the phase it reached. */
    final StopRequest stop = new StopRequest();

    ConvergingCommand(Environment environment, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint) {
        this.environment = environment;
        this.prompter = prompter;
        this.checkpoint = checkpoint;
    }
}
