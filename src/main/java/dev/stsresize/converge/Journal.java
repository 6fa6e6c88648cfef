package dev.stsresize.converge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The local journal: one JSON file per StatefulSet in progress, {@code <namespace>_<name>.json}
 * (neither may contain "_"), under {@code $XDG_STATE_HOME/kubectl-stsresize/} (default
 * {@code ~/.local/state/kubectl-stsresize/}). Written atomically (temp file, then rename) before
 * every phase; removed when the run is finished. A record holds the whole StatefulSet, env values
 * included: each file is 0600 and the folder 0700 (and every folder the plugin creates on the way,
 * as the XDG Base Directory rule asks of $XDG_STATE_HOME), on a POSIX file system.
 */
public final class Journal {
    private final Path dir;

    public Journal(Path dir) {
        this.dir = dir;
    }

    /**
     * The directory of the XDG rule: {@code $XDG_STATE_HOME} when it is an absolute path (the rule ignores a relative
     * one), else {@code <home>/.local/state}, where home is the one the kubeconfig was looked for in. When that home
     * is not absolute ({@code $HOME} unset), the passwd entry's home: a journal in the working directory would not be
     * found by a {@code resume} started elsewhere.
     */
    public static Path defaultDirectory(Map<String, String> env, Path home) {
        String xdg = env.get("XDG_STATE_HOME");
        Path base = xdg != null && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : (home.isAbsolute() ? home : Path.of(System.getProperty("user.home"))).resolve(".local").resolve("state");
        return base.resolve("kubectl-stsresize");
    }

    public Path directory() {
        return dir;
    }

    public void write(Record r) {
        try {
            privateDirectory();
            Path file = file(r.namespace(), r.name());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            if (posix()) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
            }
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

    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");

    private boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix") && dir.getFileSystem() == FileSystems.getDefault();
    }

    /** The folder, created 0700 with every missing parent; our own folder made 0700 if it was not. */
    private void privateDirectory() throws IOException {
        if (!posix()) {
            Files.createDirectories(dir);
            return;
        }
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        if (!Files.getPosixFilePermissions(dir).equals(OWNER_ONLY_DIR)) {
            Files.setPosixFilePermissions(dir, OWNER_ONLY_DIR); // the folder is the plugin's own: others never read a record
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

    /** One file of the journal: the place its name gives, and the record in it. */
    public record Entry(String namespace, String name, Path file, Record record) {}

    /** Every run in progress recorded here. */
    public List<Record> all() {
        return entries().stream().map(Entry::record).toList();
    }

    /** Every run in progress recorded here, with the place each file's name gives. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
                String base = f.getFileName().toString();
                base = base.substring(0, base.length() - ".json".length());
                int sep = base.indexOf('_');
                if (sep > 0) {
                    String ns = base.substring(0, sep);
                    String name = base.substring(sep + 1);
                    read(ns, name).ifPresent(r -> out.add(new Entry(ns, name, f, r)));
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

    public Path file(String namespace, String name) {
        return dir.resolve(namespace + "_" + name + ".json");
    }
}
