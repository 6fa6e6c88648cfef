package dev.stsresize.cli;

import dev.stsresize.manifest.Manifest;
import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code -f}/{@code -R}, kubectl's manifest flags, for every command that reads a manifest ({@code @Mixin}).
 * Declared optional so that one declaration serves all: {@code resume} may go without; the others call
 * {@link #require} first, which fails as picocli would for a required option. What the manifest is used for
 * is said in each command's description.
 */
public final class ManifestOptions {
    @Option(names = {"-f", "--filename"}, paramLabel = "MANIFEST",
            description = "A manifest file, a directory of them, or - for stdin. Repeatable.")
    List<String> files = new ArrayList<>();

    @Option(names = {"-R", "--recursive"}, description = "Read the directories given to -f recursively.")
    boolean recursive;

    /** The validate step of a command that needs a manifest: the same error as picocli's for a missing required option. */
    void require(CommandSpec spec) {
        if (files.isEmpty()) {
            throw new MissingParameterException(spec.commandLine(), spec.findOption("--filename"),
                    "Missing required option: '--filename=MANIFEST'");
        }
    }

    /** The validate step of every command with -f: each path exists, stdin at most once; nothing is read yet. */
    void validate() {
        dev.stsresize.manifest.Inputs.checkPaths(files, "-f");
    }

    boolean given() {
        return !files.isEmpty();
    }

    boolean readsStdin() {
        return files.contains("-");
    }

    /**
     * The files read on a thread of their own while the command connects (the reading begun with the command line
     * where it is of these inputs), or empty when stdin is among them (an exec credential plugin may be lent the
     * terminal's stdin while connecting).
     */
    Optional<ManifestReader.Ahead> readAhead(InputStream stdin, Optional<EarlyManifest> early) {
        if (readsStdin()) {
            return Optional.empty();
        }
        Optional<ManifestReader.Ahead> begun = early.flatMap(e -> e.readingOf(files, recursive));
        return begun.isPresent() ? begun : Optional.of(new ManifestReader(stdin, ReadLimits.DEFAULT).readAhead(files, recursive));
    }

    Manifest read(InputStream stdin, String defaultNamespace, boolean namespaceExplicit) {
        return new ManifestReader(stdin, ReadLimits.DEFAULT).read(files, recursive, defaultNamespace, namespaceExplicit);
    }

    /** {@link #read}, from the reading begun with the command line where it is of these inputs ({@link EarlyManifest}). */
    Manifest read(InputStream stdin, String defaultNamespace, boolean namespaceExplicit, Optional<EarlyManifest> early) {
        Optional<ManifestReader.Ahead> begun = early.flatMap(e -> e.readingOf(files, recursive));
        return begun.isPresent() ? begun.get().manifest(defaultNamespace, namespaceExplicit)
                : read(stdin, defaultNamespace, namespaceExplicit);
    }
}
