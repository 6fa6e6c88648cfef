package dev.stsresize.cli;

/**
 * The values of {@code -o}: an enum, so that picocli refuses any other word before the command starts.
 * {@link Document} for the commands that print a stsresize/v1 document in either syntax ({@code plan},
 * {@code usage}); {@link Result} for the commands that converge ({@code apply}, {@code resume}), whose
 * Result document is JSON only.
 */
final class OutputFormat {
    private OutputFormat() {}

    enum Document { table, json, yaml }

    enum Result { table, json }
}
