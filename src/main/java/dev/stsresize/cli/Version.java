package dev.stsresize.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The product version and the commit it was built from, filtered into a resource by the build (the
 * commit by git-commit-id-maven-plugin). Not picocli's version provider itself
 * ({@link RootCommand.VersionProvider} is): {@code version} answered by {@link QuickAnswers} loads no picocli class.
 */
public final class Version {
    private static final Properties BUILT = load();

    public static String get() {
        return value("version", "dev");
    }

    /** The full commit id the jar was built from; "" when the build had no git repository (a source tarball). */
    public static String commit() {
        return value("commit", "");
    }

    /** Whether the working tree had changes the commit does not hold when the jar was built. */
    public static boolean modified() {
        return Boolean.parseBoolean(value("modified", "false"));
    }

    /** The line {@code version} prints: "kubectl-stsresize 0.1.0 (commit 1a2b3c4d5e6f)", ", modified" when the tree was. */
    public static String line() {
        String commit = commit();
        if (commit.isEmpty()) {
            return "kubectl-stsresize " + get();
        }
        return "kubectl-stsresize " + get() + " (commit " + commit.substring(0, Math.min(12, commit.length()))
                + (modified() ? ", modified" : "") + ")";
    }

    /** A value the build filtered in; a placeholder left unfiltered (no git repository) counts as absent. */
    private static String value(String key, String absent) {
        String v = BUILT.getProperty(key, "");
        return v.isBlank() || v.startsWith("${") ? absent : v.trim();
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/dev/stsresize/version.properties")) {
            if (in != null) {
                p.load(in);
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
