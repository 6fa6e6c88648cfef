package dev.stsresize.dist;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * krew's checks of a plugin manifest, as kubernetes-sigs/krew internal/index/validation/validate.go
 * and the krew-index CI (validate-krew-manifest: no two platforms matching one os/arch) apply them,
 * plus krew-index's review rules on text (short description ≤ 70 characters on one line,
 * description lines ≤ 80). Returns every problem, empty when the manifest passes.
 */
final class KrewRules {
    static final Pattern SAFE_NAME = Pattern.compile("^[\\w-]+$");
    static final Pattern SHA256 = Pattern.compile("^[a-f0-9]{64}$");
    // krew's semver: "v" then major.minor.patch, optional pre-release and build metadata
    static final Pattern SEMVER = Pattern.compile("^v(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$");
    static final List<String> OSES = List.of("darwin", "linux", "windows");
    static final List<String> ARCHES = List.of("386", "amd64", "arm", "arm64", "ppc64le", "s390x");

    private KrewRules() {}

    static List<String> check(String fileName, JsonNode p) {
        List<String> problems = new ArrayList<>();
        if (!"krew.googlecontainertools.github.com/v1alpha2".equals(p.path("apiVersion").asText())) {
            problems.add("apiVersion must be krew.googlecontainertools.github.com/v1alpha2");
        }
        if (!"Plugin".equals(p.path("kind").asText())) {
            problems.add("kind must be Plugin");
        }
        String name = p.path("metadata").path("name").asText();
        if (!SAFE_NAME.matcher(name).matches()) {
            problems.add("metadata.name \"" + name + "\" must match " + SAFE_NAME);
        }
        if (!name.equals(fileName)) {
            problems.add("plugin should be named \"" + fileName + "\", not \"" + name + "\"");
        }
        JsonNode spec = p.path("spec");
        String shortDescription = spec.path("shortDescription").asText();
        if (shortDescription.isEmpty()) {
            problems.add("should have a short description");
        }
        if (shortDescription.contains("\n") || shortDescription.contains("\r")) {
            problems.add("should not have line breaks in short description");
        }
        if (shortDescription.length() > 70) {
            problems.add("shortDescription is " + shortDescription.length() + " characters, more than 70");
        }
        if (spec.path("homepage").asText().isEmpty()) {
            problems.add("should have a homepage");
        }
        for (String line : spec.path("description").asText().split("\n")) {
            if (line.length() > 80) {
                problems.add("description line longer than 80: " + line);
            }
            if (line.trim().startsWith("-") || line.contains(" --")) {
                problems.add("description lists flags: " + line);
            }
        }
        if (!SEMVER.matcher(spec.path("version").asText()).matches()) {
            problems.add("version \"" + spec.path("version").asText() + "\" is not semver with a leading v");
        }
        JsonNode platforms = spec.path("platforms");
        if (!platforms.isArray() || platforms.isEmpty()) {
            problems.add("should have a platform specified");
            return problems;
        }
        for (JsonNode pl : platforms) {
            problems.addAll(platform(pl));
        }
        for (String os : OSES) {
            for (String arch : ARCHES) {
                int matching = 0;
                for (JsonNode pl : platforms) {
                    if (matches(pl.path("selector"), Map.of("os", os, "arch", arch))) {
                        matching++;
                    }
                }
                if (matching > 1) {
                    problems.add(matching + " platforms match " + os + "/" + arch + ": selectors overlap");
                }
            }
        }
        return problems;
    }

    private static List<String> platform(JsonNode pl) {
        List<String> problems = new ArrayList<>();
        if (pl.path("uri").asText().isEmpty()) {
            problems.add("`uri` has to be set");
        }
        String sha = pl.path("sha256").asText();
        if (sha.isEmpty()) {
            problems.add("`sha256` sum has to be set");
        } else if (!SHA256.matcher(sha).matches()) {
            problems.add("`sha256` value " + sha + " is not valid, must match pattern " + SHA256);
        }
        if (pl.path("bin").asText().isEmpty()) {
            problems.add("`bin` has to be set");
        }
        JsonNode sel = pl.path("selector");
        if (!sel.isObject()) {
            problems.add("nil selector is not supported");
            return problems;
        }
        JsonNode labels = sel.path("matchLabels");
        JsonNode exprs = sel.path("matchExpressions");
        if (labels.isMissingNode() && (exprs.isMissingNode() || exprs.isEmpty())) {
            problems.add("empty selector is not supported");
        }
        if (labels.isObject() && labels.isEmpty()) {
            problems.add("`matchLabels` specified but empty");
        }
        for (Iterator<String> it = labels.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!key.equals("os") && !key.equals("arch")) {
                problems.add("key \"" + key + "\" not supported");
            }
        }
        for (JsonNode e : exprs) {
            String key = e.path("key").asText();
            if (!key.equals("os") && !key.equals("arch")) {
                problems.add("key \"" + key + "\" not supported");
            }
        }
        return problems;
    }

    /** A label selector's meaning for krew's two labels: matchLabels all equal, In / NotIn expressions. */
    static boolean matches(JsonNode selector, Map<String, String> labels) {
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (JsonNode e : selector.path("matchExpressions")) {
            String value = labels.get(e.path("key").asText());
            boolean in = false;
            for (JsonNode v : e.path("values")) {
                in |= v.asText().equals(value);
            }
            String op = e.path("operator").asText();
            if (op.equals("In") && !in || op.equals("NotIn") && in) {
                return false;
            }
        }
        return true;
    }
}
