package dev.stsresize.cli;

import picocli.CommandLine.Option;

/**
 * The values of {@code -o}: an enum, so that picocli refuses any other word before the command starts.
 * {@link Document} for the commands that print a stsresize/v1 document in either syntax ({@code plan},
 * {@code usage}); {@link Result} for the commands that converge ({@code apply}, {@code resume}), whose
 * Result document comes at the end, the plan and progress going to stderr meanwhile.
 */
final class OutputFormat {
    private OutputFormat() {}

    enum Document { table, json, yaml }

    enum Result {
        table, json, yaml;

        /** Whether stdout holds the Result document, so that the plan and progress go to stderr. */
        boolean document() {
            return this != table;
        }
    }

    /** {@code -o} of the commands that print a document ({@code @Mixin}); the kind is the command's own. */
    static final class DocumentOption {
        @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
                description = "table, json or yaml (json and yaml are the stsresize/v1 document of ${COMMAND-NAME}). Default: ${DEFAULT-VALUE}.")
        Document format;
    }

    /** {@code -o} of the commands that converge ({@code @Mixin}). */
    static final class ResultOption {
        @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
                description = "table, json or yaml: one stsresize/v1 Result document on stdout at the end. Default: ${DEFAULT-VALUE}.")
        Result format;
    }
}
