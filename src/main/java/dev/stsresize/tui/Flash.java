package dev.stsresize.tui;

/** The one-line message under the body: what just happened, or what went wrong. */
public record Flash(String text, Level level) {
    public enum Level { INFO, WARN, ERROR }

    static Flash info(String text) {
        return new Flash(text, Level.INFO);
    }

    static Flash warn(String text) {
        return new Flash(text, Level.WARN);
    }

    static Flash error(String text) {
        return new Flash(text, Level.ERROR);
    }
}
