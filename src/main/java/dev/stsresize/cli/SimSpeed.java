package dev.stsresize.cli;

/**
 * How fast the simulated controllers act, as {@code simulate} and {@code demo} take it: the simulator's own
 * {@code Speed} by name, kept here so that reflecting on either command (at every start) loads no simulator class.
 */
enum SimSpeed { fast, realistic }
