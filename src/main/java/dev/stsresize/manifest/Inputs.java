package dev.stsresize.manifest;

import dev.stsresize.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * The {@code -f} arguments, as kubectl reads them: a file, a directory (its .yaml, .yml and .json
 * files in name order; with {@code -R} its subdirectories too), or {@code -} for stdin (once).
 */
public final class Inputs {
    private static final List<String> EXTENSIONS = List.of(".yaml", ".yml", ".json");
    private final InputStream stdin;
    private final String flag;

    /** @param flag the option the paths came from, for messages ({@code -f}, {@code --live}) */
    public Inputs(InputStream stdin, String flag) {
        this.stdin = stdin;
        this.flag = flag;
    }

    /**
     * The checks {@link #forEach} makes before it reads, alone: every path exists and stdin is named at most once.
     * For a command's validate step, so that a typo in a path fails before anything is sent.
     */
    public static void checkPaths(List<String> paths, String flag) {
        if (paths.stream().filter("-"::equals).count() > 1) {
            throw stdinTwice(flag);
        }
        for (String p : paths) {
            if (!p.equals("-") && !Files.isDirectory(Path.of(p)) && !Files.isRegularFile(Path.of(p))) {
                throw noSuchPath(p, flag);
            }
        }
    }

    private static UserError stdinTwice(String flag) {
        return new UserError(flag + " - is given twice; standard input can be read only once. Pass it once.");
    }

    private static UserError noSuchPath(String p, String flag) {
        return new UserError("the path \"" + p + "\" given to " + flag + " does not exist or is not a file or a"
                + " directory. Check the spelling, or pass - to read standard input.");
    }

    /** Calls {@code each} with the name and content of every input, in order. */
    public void forEach(List<String> paths, boolean recursive, BiConsumer<String, Reader> each) {
        boolean stdinUsed = false;
        for (String p : paths) {
            if (p.equals("-")) {
                if (stdinUsed) {
                    throw stdinTwice(flag);
                }
                stdinUsed = true;
                each.accept("<stdin>", new InputStreamReader(stdin, StandardCharsets.UTF_8));
                continue;
            }
            Path path = Path.of(p);
            if (Files.isDirectory(path)) {
                for (Path f : filesIn(path, recursive)) {
                    open(f, each);
                }
            } else if (Files.isRegularFile(path)) {
                open(path, each);
            } else {
                throw noSuchPath(p, flag);
            }
        }
    }

    private static List<Path> filesIn(Path dir, boolean recursive) {
        try (Stream<Path> s = recursive ? Files.walk(dir) : Files.list(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(f -> EXTENSIONS.stream().anyMatch(e -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(e)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UserError("cannot list the directory \"" + dir + "\": " + e.getMessage() + ". Check its permissions.", e);
        }
    }

    private static void open(Path f, BiConsumer<String, Reader> each) {
        try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            each.accept(f.toString(), r);
        } catch (IOException | UncheckedIOException e) {
            throw new UserError("cannot read \"" + f + "\": " + e.getMessage() + ". Check that it is readable UTF-8 text.", e);
        }
    }

    /** For tests and callers holding paths: the names this would read, in order. */
    public List<String> names(List<String> paths, boolean recursive) {
        List<String> out = new ArrayList<>();
        forEach(paths, recursive, (name, r) -> out.add(name));
        return out;
    }
}
