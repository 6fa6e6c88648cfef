package dev.stsresize.cli;

import dev.stsresize.manifest.ManifestReader;
import dev.stsresize.manifest.ReadLimits;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A plan's {@code -f} files read from the moment its words are seen, on a thread of their own, while picocli builds
 * the command from its annotations, a time in which one processor is otherwise idle; a large manifest's reading is
 * what a plan waits for longest (docs/performance.md).
 *
 * <p>The files are a guess from the words in their plain forms ({@code -f X}, {@code -fX}, {@code -f=X},
 * {@code --filename X}, {@code --filename=X}, {@code -R}, {@code --recursive}). The command uses this reading only
 * where picocli's parse names exactly the same files, in the same order, and {@code -R} alike
 * ({@link #readingOf}); otherwise it reads as before and this reading is dropped. Only regular files are read
 * here (never stdin, a pipe or a directory), and an error of this reading reaches the user only through the
 * command, after its flags are checked.
 */
final class EarlyManifest {
    /** The inputs the words give a plan, as picocli will read them when they are in the plain forms. */
    record Inputs(List<String> files, boolean recursive) {
        // equals and hashCode by hand: a record's own are made at first use by a bootstrap method (ObjectMethods),
        // which spins method-handle classes on the plan's start-up path (docs/performance.md)

        @Override
        public boolean equals(Object o) {
            return o instanceof Inputs i && recursive == i.recursive && files.equals(i.files);
        }

        @Override
        public int hashCode() {
            return 31 * files.hashCode() + Boolean.hashCode(recursive);
        }
    }

    private final Inputs inputs;
    private final ManifestReader.Ahead reading;

    private EarlyManifest(Inputs inputs, ManifestReader.Ahead reading) {
        this.inputs = inputs;
        this.reading = reading;
    }

    /**
     * Starts reading the files the words give {@code plan}; empty for another command, no file, or anything among
     * them but regular files. A pipe ({@code -f <(helm template ...)}) or a directory's contents cannot be read
     * twice: were the guess wrong, the command's own reading would find the pipe already drained.
     */
    static Optional<EarlyManifest> start(String command, String[] words, InputStream stdin) {
        return guess(command, words).filter(in -> in.files().stream().allMatch(EarlyManifest::regularFile))
                .map(in -> new EarlyManifest(in, new ManifestReader(stdin, ReadLimits.DEFAULT).readAhead(in.files(), in.recursive())));
    }

    private static boolean regularFile(String path) {
        try {
            return Files.isRegularFile(Path.of(path));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** This reading, when {@code files} and {@code recursive} are exactly what it reads. */
    Optional<ManifestReader.Ahead> readingOf(List<String> files, boolean recursive) {
        return inputs.equals(new Inputs(files, recursive)) ? Optional.of(reading) : Optional.empty();
    }

    /**
     * The inputs the words give {@code plan}, if any.
     *
     * @param command the command the words name ({@code Cli.invoked}: their first word not a flag, so its first
     *     occurrence)
     */
    static Optional<Inputs> guess(String command, String[] words) {
        if (!"plan".equals(command)) {
            return Optional.empty();
        }
        List<String> files = new ArrayList<>();
        boolean recursive = false;
        for (int i = java.util.Arrays.asList(words).indexOf(command) + 1; i < words.length; i++) {
            String w = words[i];
            if (w.equals("--")) {
                break;
            }
            if ((w.equals("-f") || w.equals("--filename")) && i + 1 < words.length) {
                files.add(words[++i]);
            } else if (w.startsWith("--filename=")) {
                files.add(w.substring("--filename=".length()));
            } else if (w.startsWith("-f=")) {
                files.add(w.substring(3));
            } else if (w.startsWith("-f") && w.length() > 2) {
                files.add(w.substring(2));
            } else if (w.equals("-R") || w.equals("--recursive")) {
                recursive = true;
            }
        }
        if (files.isEmpty() || files.contains("-")) {
            return Optional.empty();
        }
        return Optional.of(new Inputs(List.copyOf(files), recursive));
    }
}
