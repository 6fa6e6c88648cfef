package dev.stsresize.cli;

import dev.stsresize.manifest.Manifest;
import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code -f}/{@code -R}, kubectl's manifest flags, for the commands that require a manifest ({@code @Mixin}).
 * {@code ui} and {@code resume} declare their own {@code -f}: their help says something else about it.
 */
public final class ManifestOptions {
    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "MANIFEST",
            description = "A manifest file, a directory of them, or - for stdin. Repeatable.")
    List<String> files = new ArrayList<>();

    @Option(names = {"-R", "--recursive"}, description = "Read the directories given to -f recursively.")
    boolean recursive;

    Manifest read(InputStream stdin, String defaultNamespace, boolean namespaceExplicit) {
        return new ManifestReader(stdin, ReadLimits.DEFAULT).read(files, recursive, defaultNamespace, namespaceExplicit);
    }
}
