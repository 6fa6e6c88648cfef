package dev.stsresize.sim.http;

import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.patch.GoFormat;
import dev.stsresize.sim.patch.Patches;
import dev.stsresize.sim.registry.WriteOptions;
import dev.stsresize.sim.registry.WriteOptions.FieldValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The query options of a create, update or patch, decoded and checked as the handlers do
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go, update.go, patch.go: ParameterCodec
 * then ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions of
 * apimachinery/pkg/apis/meta/v1/validation/validation.go). A bad option is a 422 on
 * {@code CreateOptions.meta.k8s.io} (or Update/Patch), before the body is read.
 */
final class WriteQuery {
    /** validation.FieldManagerMaxLength */
    private static final int FIELD_MANAGER_MAX = 128;

    private WriteQuery() {}

    /**
     * @param verb "create", "update" or "patch"
     * @param name the object's name in the URL ("" for a create on the collection)
     * @param patchType the patch's type, for "patch" only
     */
    static WriteOptions decode(String verb, String name, Map<String, String> query, Patches.Type patchType, String userAgent) {
        String kind = switch (verb) {
            case "create" -> "CreateOptions";
            case "update" -> "UpdateOptions";
            default -> "PatchOptions";
        };
        String manager = query.getOrDefault("fieldManager", "");
        List<ApiError.Cause> causes = new ArrayList<>();
        if (verb.equals("patch")) {
            if (patchType != Patches.Type.APPLY && query.containsKey("force")) {
                causes.add(new ApiError.Cause("FieldValueForbidden", "Forbidden: may not be specified for non-apply patch", "force"));
            } else if (patchType == Patches.Type.APPLY && manager.isEmpty()) {
                causes.add(new ApiError.Cause("FieldValueRequired", "Required value: is required for apply patch", "fieldManager"));
            }
        }
        fieldManager(manager, causes);
        String dryRun = query.get("dryRun");
        if (dryRun != null && !dryRun.equals("All")) {
            // ValidateDryRun: field.NotSupported(dryRun, []string{…}, ["All"])
            causes.add(new ApiError.Cause("FieldValueNotSupported", "Unsupported value: []string{" + GoFormat.quote(dryRun)
                    + "}: supported values: \"All\"", "dryRun"));
        }
        String validation = query.getOrDefault("fieldValidation", "");
        FieldValidation directive = switch (validation) {
            case "Strict" -> FieldValidation.STRICT;
            case "Ignore" -> FieldValidation.IGNORE;
            case "Warn", "" -> FieldValidation.WARN; // handlers' fieldValidation(): "" means Warn
            default -> {
                causes.add(new ApiError.Cause("FieldValueNotSupported", "Unsupported value: " + GoFormat.quote(validation)
                        + ": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"", "fieldValidation"));
                yield FieldValidation.WARN;
            }
        };
        if (!causes.isEmpty()) {
            throw ApiError.invalid("meta.k8s.io", kind, name, causes);
        }
        if (manager.isEmpty() && patchType != Patches.Type.APPLY) {
            // fieldmanager: the user-agent's product when the query names no manager
            manager = userAgent == null || userAgent.isEmpty() ? "unknown" : userAgent.split("/", 2)[0];
        }
        return new WriteOptions("All".equals(dryRun), manager, force(query.get("force")), directive, new ArrayList<>());
    }

    /** runtime.Convert_Slice_string_To_bool: "false" and "0" (any case) are false, any other value true. */
    private static boolean force(String value) {
        if (value == null) {
            return false;
        }
        String v = value.toLowerCase(Locale.ROOT);
        return !v.equals("false") && !v.equals("0");
    }

    /** ValidateFieldManager: at most 128 bytes, printable characters only. */
    private static void fieldManager(String manager, List<ApiError.Cause> causes) {
        if (manager.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > FIELD_MANAGER_MAX) {
            causes.add(new ApiError.Cause("FieldValueTooLong", "Too long: must have at most " + FIELD_MANAGER_MAX + " bytes", "fieldManager"));
        }
        int[] cps = manager.codePoints().toArray();
        int byteIndex = 0;
        for (int cp : cps) {
            if (!printable(cp)) {
                causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + GoFormat.quote(manager)
                        + ": invalid character " + String.format("U+%04X", cp) + " (at position " + byteIndex + ")", "fieldManager"));
            }
            byteIndex += new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
    }

    /** unicode.IsPrint for what a query can carry: graphic characters and the ASCII space. */
    private static boolean printable(int cp) {
        if (cp == ' ') {
            return true;
        }
        int type = Character.getType(cp);
        return !Character.isWhitespace(cp) && type != Character.CONTROL && type != Character.FORMAT && type != Character.UNASSIGNED
                && type != Character.SURROGATE && type != Character.PRIVATE_USE && type != Character.SPACE_SEPARATOR
                && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR;
    }
}
