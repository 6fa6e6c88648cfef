package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Reads the certificates, keys and token files a kubeconfig names, inline ({@code *-data}, base64) or by path. */
final class KubeconfigData {
    private KubeconfigData() {}

    static byte[] bytes(ObjectNode entry, String dataField, String fileField, String who, String files) {
        String data = entry.path(dataField).asText("");
        if (!data.isEmpty()) {
            try {
                return Base64.getMimeDecoder().decode(data);
            } catch (IllegalArgumentException e) {
                throw new UserError("the " + dataField + " of kubeconfig " + who + " in " + files
                        + " is not valid base64; fix it (kubectl config view --raw shows it)."); // no cause: it may hold a key
            }
        }
        String file = entry.path(fileField).asText("");
        if (file.isEmpty()) {
            return null;
        }
        Path path = Path.of(file);
        requireFile(path, fileField, who, files);
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UserError("cannot read " + path + ", the " + fileField + " of kubeconfig " + who + " ("
                    + e.getMessage() + "); check its permissions.", e);
        }
    }

    static void requireFile(Path path, String field, String who, String files) {
        if (!Files.isRegularFile(path)) {
            throw new UserError("the " + field + " file " + path + " of kubeconfig " + who + " in " + files
                    + " does not exist; fix the path in the kubeconfig, or pick another --context.");
        }
    }

}
