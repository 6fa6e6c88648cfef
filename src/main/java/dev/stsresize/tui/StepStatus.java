package dev.stsresize.tui;

/** Where one checklist line stands. */
public enum StepStatus { PENDING, RUNNING, DONE, FAILED }
