package dev.stsresize.cli;

import dev.stsresize.converge.StopRequest;

/**
 * A prompter that takes part in the command's stop: Ctrl-C at a question stops the whole command (not
 * a "no" that goes on to the next StatefulSet and asks again), and so does the end of input (Ctrl-D,
 * or a terminal that went away: its SIGHUP may come after the read has ended); a stop requested while
 * a question waits (SIGHUP, SIGTERM, Ctrl-C) ends it. Once stopped, nothing more is asked: every
 * answer is null.
 */
final class StoppablePrompter implements Prompter {
    private final Prompter prompter;
    private final StopRequest stop;

    StoppablePrompter(Prompter prompter, StopRequest stop) {
        this.prompter = prompter;
        this.stop = stop;
    }

    /** The line typed; null when the command is stopping (then {@link #stopped}). */
    @Override
    public String ask(String question) {
        if (stop.requested()) {
            return null;
        }
        AutoCloseable wake = prompter::cancel;
        stop.waiting(wake);
        try {
            String answer = prompter.ask(question);
            if (answer == null) {
                stop.request("end of input at the prompt");
            }
            return answer;
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
