package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a kubeconfig {@code user.exec} credential plugin (client.authentication.k8s.io) and reads the
 * ExecCredential it prints: a bearer token, or a client certificate and key. Not interactive: the
 * plugin gets no stdin, its stderr passes through (where plugins print login hints).
 */
final class ExecCredentialPlugin {
    private static final List<String> API_VERSIONS = List.of(
            "client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1");

    private final ObjectNode exec;
    private final String userName;

    ExecCredentialPlugin(ObjectNode exec, String userName) {
        this.exec = exec;
        this.userName = userName;
    }

    /** What the plugin printed: token, or certificate and key (PEM). */
    record Credential(String token, String clientCertificatePem, String clientKeyPem) {}

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
        List<String> argv = new ArrayList<>();
        argv.add(command);
        exec.path("args").forEach(a -> argv.add(a.asText()));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        exec.path("env").forEach(e -> pb.environment().put(e.path("name").asText(), e.path("value").asText()));
        pb.environment().put("KUBERNETES_EXEC_INFO",
                "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"ExecCredential\",\"spec\":{\"interactive\":false}}");
        JsonNode output;
        try {
            Process process = pb.start();
            process.getOutputStream().close();
            try (InputStream in = process.getInputStream()) {
                byte[] bytes = in.readAllBytes();
                int exit = process.waitFor();
                if (exit != 0) {
                    throw fail("it exited with code " + exit, "run it by hand to see why", null);
                }
                output = Json.MAPPER.readTree(bytes);
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

    private Credential credentialFrom(JsonNode output, String apiVersion) {
        if (output == null || !"ExecCredential".equals(output.path("kind").asText())) {
            throw fail("it did not print an ExecCredential", "run it by hand to see what it prints", null);
        }
        if (!apiVersion.equals(output.path("apiVersion").asText())) {
            throw fail("it printed apiVersion \"" + output.path("apiVersion").asText() + "\" instead of \""
                    + apiVersion + "\"", "align the kubeconfig's exec apiVersion with the plugin", null);
        }
        JsonNode status = output.path("status");
        String token = status.path("token").asText("");
        String cert = status.path("clientCertificateData").asText("");
        String key = status.path("clientKeyData").asText("");
        if (token.isEmpty() && (cert.isEmpty() || key.isEmpty())) {
            throw fail("its ExecCredential holds neither a token nor a client certificate and key",
                    "run it by hand to see what it prints", null);
        }
        return new Credential(token, cert, key);
    }

    private UserError fail(String what, String fix, Throwable cause) {
        return new UserError("the credential plugin \"" + exec.path("command").asText("") + "\" of kubeconfig user \""
                + userName + "\" failed: " + what + "; " + fix + ".", cause);
    }
}
