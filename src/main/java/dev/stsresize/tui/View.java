package dev.stsresize.tui;

/** The screen the body shows. */
public enum View { LIST, DIFF, WIZARD, HELP, EDIT, USAGE }
