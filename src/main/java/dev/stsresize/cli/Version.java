package dev.stsresize.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The product version, filtered into a resource by the build. Not picocli's version provider itself
 * ({@link RootCommand.VersionProvider} is): {@code version} answered by {@link QuickAnswers} loads no picocli class.
 */
public final class Version {
    private static final String VERSION = load();

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/dev/stsresize/version.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
