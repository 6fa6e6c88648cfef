package dev.stsresize.manifest;

import dev.stsresize.UserError;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads and writes the manifest file a size edit changes ({@code set-size} and the UI's {@code e}): strict
 * UTF-8 in, written in place (same inode: permissions, owner and links kept). Every failure is a one-paragraph
 * {@link UserError} naming the file.
 */
public final class ManifestFile {
    private ManifestFile() {}

    /** Strict UTF-8: a file in another encoding is refused rather than rewritten with replacement characters. */
    public static String read(String file) {
        Path path = Path.of(file);
        if (Files.isDirectory(path)) {
            throw new UserError(file + " is a directory; set-size edits one file: pass the file that holds the StatefulSet.");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
        } catch (CharacterCodingException e) {
            throw new UserError(file + " is not UTF-8 text, so it is not edited; convert it (iconv -t utf-8) first.", e);
        } catch (IOException e) {
            throw new UserError("cannot read " + file + ": " + e.getMessage() + ". Check that it exists and is readable.", e);
        }
    }

    /** Writes {@code text} in place. */
    public static void write(String file, String text) {
        try {
            Files.writeString(Path.of(file), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + e.getMessage() + "; it is unchanged only if the error came before"
                    + " writing. Check its permissions.", e);
        }
    }

    /**
     * Writes {@code after} only if the file still holds {@code before}: the diff the operator confirmed is the
     * change made, never one computed from a file someone edited since.
     */
    public static void replace(String file, String before, String after) {
        if (!read(file).equals(before)) {
            throw new UserError(file + " changed since its diff was shown, so it is not written: press e again to see the"
                    + " diff against what it holds now.");
        }
        write(file, after);
    }
}
