package dev.stsresize.cli;

import dev.stsresize.converge.StopRequest;

/**
 * A prompter that takes part in the command's stop: Ctrl-C at a question stops the whole command (not
 * a "no" that goes on to the next StatefulSet and asks again), and a stop requested while a question
 * waits (SIGHUP, SIGTERM, Ctrl-C) ends it. Once stopped, nothing more is asked: every answer is null.
 */
final class StoppablePrompter implements Prompter {
    private final Prompter prompter;
    private final StopRequest stop;

    StoppablePrompter(Prompter prompter, StopRequest stop) {
        this.prompter = prompter;
        this.stop = stop;
    }

    /** The line typed; null at end of input, or when the command is stopping ({@link #stopped} then says so). */
    @Override
    public String ask(String question) {
        if (stop.requested()) {
            return null;
        }
        AutoCloseable wake = prompter::cancel;
        stop.waiting(wake);
        try {
            return prompter.ask(question);
        } catch (Interrupted e) {
            stop.request("Ctrl-C at the prompt");
            return null;
        } finally {
            stop.doneWaiting(wake);
        }
    }

    boolean stopped() {
        return stop.requested();
    }
}
