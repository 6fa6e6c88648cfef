package dev.stsresize.cli;

/** Asks the operator one question on the terminal and answers the line typed (null at end of input). */
@FunctionalInterface
public interface Prompter {
    String ask(String question);
}
