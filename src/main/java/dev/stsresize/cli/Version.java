package dev.stsresize.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The product version, filtered into a resource by the build. */
public final class Version implements IVersionProvider {
    private static final String VERSION = load();

    public static String get() {
        return VERSION;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"kubectl-stsresize " + VERSION};
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
