package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Runs a kubeconfig {@code user.exec} credential plugin (client.authentication.k8s.io) as kubectl
 * does, and reads the ExecCredential it prints: a bearer token, or a client certificate and key,
 * with its expiry. Interactive (the terminal's stdin) only when {@code interactiveMode} allows it
 * and there is a terminal; its stderr passes through, where plugins print login hints.
 *
 * @param cluster the kubeconfig cluster, handed to the plugin when it asks ({@code provideClusterInfo})
 * @param terminal whether this process has a terminal to lend the plugin
 */
record ExecCredentialPlugin(ObjectNode exec, String userName, ObjectNode cluster, boolean terminal) {
    private static final List<String> API_VERSIONS = List.of(
            "client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1");

    /** What the plugin printed: a token, or a certificate and key (PEM); and until when it is good. */
    record Credential(String token, String clientCertificatePem, String clientKeyPem, Optional<Instant> expiration) {
        boolean expiredAt(Instant now) {
            return expiration.map(e -> !now.isBefore(e)).orElse(false);
        }
    }

    Credential run() {
        String apiVersion = exec.path("apiVersion").asText("");
        String command = exec.path("command").asText("");
        if (!API_VERSIONS.contains(apiVersion)) {
            throw fail("its apiVersion \"" + apiVersion + "\" is not one of " + String.join(", ", API_VERSIONS),
                    "update the kubeconfig's exec section", null);
        }
        if (command.isEmpty()) {
            throw fail("it names no command", "set user.exec.command in the kubeconfig", null);
        }
        boolean interactive = interactive();
        List<String> argv = new ArrayList<>();
        argv.add(command);
        exec.path("args").forEach(a -> argv.add(a.asText()));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectInput(interactive ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        exec.path("env").forEach(e -> pb.environment().put(e.path("name").asText(), e.path("value").asText()));
        pb.environment().put("KUBERNETES_EXEC_INFO", execInfo(apiVersion, interactive).toString());
        JsonNode output;
        try {
            Process process = pb.start();
            if (!interactive) {
                process.getOutputStream().close();
            }
            try (InputStream in = process.getInputStream()) {
                byte[] bytes = in.readAllBytes();
                int exit = process.waitFor();
                if (exit != 0) {
                    throw fail("it exited with code " + exit, "run it by hand to see why", null);
                }
                output = parse(bytes);
            }
        } catch (IOException e) {
            String hint = exec.path("installHint").asText("");
            throw fail("it could not be run (" + e.getMessage() + ")",
                    hint.isEmpty() ? "install it or fix user.exec.command in the kubeconfig" : hint.strip(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail("it was interrupted", "run again", e);
        }
        return credentialFrom(output, apiVersion);
    }

    /**
     * The plugin's output as JSON, or a refusal that says what was wrong without a byte of it: the
     * output is credential material, and Jackson's messages quote the input ("Unrecognized token
     * 's3cr3t…'"), so neither its message nor the exception (a --debug stack trace) is kept.
     */
    private JsonNode parse(byte[] bytes) {
        try {
            return TreeMapper.MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw notACredential(bytes.length);
        }
    }

    private UserError notACredential(int bytes) {
        return fail("it printed " + bytes + " bytes that are not an ExecCredential JSON object (apiVersion "
                + exec.path("apiVersion").asText("") + ", kind ExecCredential, status.token or"
                + " status.clientCertificateData and status.clientKeyData)",
                "run it by hand to see what it prints (it is a credential: not in a shared terminal)", null);
    }

    /** kubectl's rules: Never → no; Always → yes, and a terminal is required; IfAvailable (the default) → if there is one. */
    private boolean interactive() {
        String mode = exec.path("interactiveMode").asText("IfAvailable");
        if (mode.equals("Always") && !terminal) {
            throw fail("its interactiveMode is Always and there is no terminal to lend it",
                    "run from a terminal, or log in beforehand so it needs no input", null);
        }
        return !mode.equals("Never") && terminal;
    }

    /** The KUBERNETES_EXEC_INFO the plugin reads: interactive or not, and the cluster when it asks for it. */
    private ObjectNode execInfo(String apiVersion, boolean interactive) {
        ObjectNode info = TreeMapper.MAPPER.createObjectNode();
        info.put("apiVersion", apiVersion);
        info.put("kind", "ExecCredential");
        ObjectNode spec = info.putObject("spec");
        spec.put("interactive", interactive);
        if (exec.path("provideClusterInfo").asBoolean(false)) {
            ObjectNode c = spec.putObject("cluster");
            c.put("server", cluster.path("server").asText(""));
            copyText(cluster, c, "tls-server-name");
            copyText(cluster, c, "proxy-url");
            if (cluster.path("insecure-skip-tls-verify").asBoolean(false)) {
                c.put("insecure-skip-tls-verify", true);
            }
            byte[] ca = KubeconfigData.bytes(cluster, "certificate-authority-data", "certificate-authority",
                    "cluster of user \"" + userName + "\"", "the kubeconfig");
            if (ca != null) {
                c.put("certificate-authority-data", Base64.getEncoder().encodeToString(ca));
            }
            JsonNode extension = execExtension();
            if (extension != null) {
                c.set("config", extension);
            }
        }
        return info;
    }

    /** The cluster's extension named client.authentication.k8s.io/exec, passed to the plugin as is. */
    private JsonNode execExtension() {
        for (JsonNode e : cluster.path("extensions")) {
            if ("client.authentication.k8s.io/exec".equals(e.path("name").asText())) {
                return e.path("extension");
            }
        }
        return null;
    }

    private static void copyText(ObjectNode from, ObjectNode to, String field) {
        String v = from.path(field).asText("");
        if (!v.isEmpty()) {
            to.put(field, v);
        }
    }

    private Credential credentialFrom(JsonNode output, String apiVersion) {
        if (output == null || !output.isObject()) {
            throw notACredential(output == null ? 0 : output.toString().length());
        }
        if (!"ExecCredential".equals(output.path("kind").asText())) {
            throw fail("it printed a JSON object whose kind is not ExecCredential (apiVersion " + apiVersion
                    + ", kind ExecCredential, status.token or status.clientCertificateData and status.clientKeyData)",
                    "run it by hand to see what it prints (it is a credential: not in a shared terminal)", null);
        }
        if (!apiVersion.equals(output.path("apiVersion").asText())) {
            throw fail("it printed an apiVersion other than \"" + apiVersion + "\"",
                    "align the kubeconfig's exec apiVersion with the plugin", null);
        }
        JsonNode status = output.path("status");
        String token = status.path("token").asText("");
        String cert = status.path("clientCertificateData").asText("");
        String key = status.path("clientKeyData").asText("");
        if (token.isEmpty() && (cert.isEmpty() || key.isEmpty())) {
            throw fail("its ExecCredential holds neither status.token nor both status.clientCertificateData and"
                    + " status.clientKeyData", "run it by hand to see what it prints", null);
        }
        if (!UserAuthentication.headerSafe(token)) {
            throw fail("its status.token holds a line break or another control character", "fix the plugin's output", null);
        }
        return new Credential(token, cert, key, expiration(status.path("expirationTimestamp").asText("")));
    }

    private Optional<Instant> expiration(String timestamp) {
        if (timestamp.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(timestamp));
        } catch (DateTimeParseException e) {
            throw fail("its status.expirationTimestamp (" + timestamp.length() + " characters) is not an RFC 3339 time",
                    "fix the plugin's output", null);
        }
    }

    private UserError fail(String what, String fix, Throwable cause) {
        return new UserError("the credential plugin \"" + exec.path("command").asText("") + "\" of kubeconfig user \""
                + userName + "\" failed: " + what + "; " + fix + ".", cause);
    }
}
