package dev.stsresize.cli;

/**
 * Asks the operator one question on the terminal and answers the line typed (null at end of input).
 * Ctrl-C at the question is no answer: {@link Interrupted} is thrown, and the command stops.
 */
@FunctionalInterface
public interface Prompter {
    String ask(String question);

    /** Called from another thread (a signal's): the question being asked, or the next one, ends with {@link Interrupted}. */
    default void cancel() {}

    /** The operator pressed Ctrl-C at the question (or a signal ended it): no answer at all, not a "no". */
    final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Interrupted() {
            super("interrupted at the prompt");
        }
    }
}
