package dev.stsresize.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Job's converge script, shipped as the resource {@code stsresize.sh} beside this class. */
public final class Script {
    public static final String RESOURCE = "stsresize.sh";
    private static final String TEXT = load();

    private Script() {}

    public static String text() {
        return TEXT;
    }

    private static String load() {
        try (InputStream in = Script.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + RESOURCE + " is missing from the jar: a build problem");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
