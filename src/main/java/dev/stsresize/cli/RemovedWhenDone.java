package dev.stsresize.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file that must not outlive the command that wrote it: the simulated cluster's admin kubeconfig, whose
 * keys would otherwise stay in /tmp after the cluster is gone. Removed on {@link #close()}, and by a
 * shutdown hook when Ctrl-C or SIGTERM ends the JVM first: the JVM halts once its hooks are done, so the
 * command's own finally blocks may never run.
 */
final class RemovedWhenDone implements AutoCloseable {
    private final Path file;
    private final PrintWriter err;
    private final Thread hook;

    RemovedWhenDone(Path file, PrintWriter err) {
        this.file = file;
        this.err = err;
        this.hook = new Thread(this::removeQuietly, "remove " + file.getFileName());
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it removes the file
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            err.println("warning: could not remove " + file + " (" + e.getMessage() + "); it holds admin credentials of a "
                    + "cluster that is gone: delete it.");
            err.flush();
        }
    }

    private void removeQuietly() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the JVM is ending: no one is left to tell
        }
    }
}
