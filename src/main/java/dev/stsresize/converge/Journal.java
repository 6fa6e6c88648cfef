package dev.stsresize.converge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The local journal: one JSON file per StatefulSet in progress, {@code <namespace>_<name>.json}
 * (neither may contain "_"), under {@code $XDG_STATE_HOME/kubectl-stsresize/} (default
 * {@code ~/.local/state/kubectl-stsresize/}). Written atomically (temp file, then rename) before
 * every phase; removed when the run is finished.
 */
public final class Journal {
    private final Path dir;

    public Journal(Path dir) {
        this.dir = dir;
    }

    /** The directory of the XDG rule, from this environment. */
    public static Path defaultDirectory(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".local", "state");
        return base.resolve("kubectl-stsresize");
    }

    public Path directory() {
        return dir;
    }

    public void write(Record r) {
        try {
            Files.createDirectories(dir);
            Path file = file(r.namespace(), r.name());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, Objects.json(r.toJson()), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the local journal in " + dir + ": " + e.getMessage(), e);
        }
    }

    public Optional<Record> read(String namespace, String name) {
        Path f = file(namespace, name);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Record.fromJson(Objects.MAPPER.readTree(Files.readString(f, StandardCharsets.UTF_8))));
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("the local journal " + f + " cannot be read (" + e.getMessage()
                    + "); move it away to start over", e));
        }
    }

    /** Every run in progress recorded here. */
    public List<Record> all() {
        List<Record> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
                String base = f.getFileName().toString();
                base = base.substring(0, base.length() - ".json".length());
                int sep = base.indexOf('_');
                if (sep > 0) {
                    read(base.substring(0, sep), base.substring(sep + 1)).ifPresent(out::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    public void remove(String namespace, String name) {
        try {
            Files.deleteIfExists(file(namespace, name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path file(String namespace, String name) {
        return dir.resolve(namespace + "_" + name + ".json");
    }
}
