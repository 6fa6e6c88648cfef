package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.ClaimNames;
import dev.stsresize.plan.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The claims a resumed run may grow when the operator's manifest is given: of the claims the record
 * names, those that a claim template of the manifest names ({@code <template>-<name>-<ordinal>}),
 * each to the size that template declares. A record cannot add a claim nor choose a size.
 */
final class ManifestClaims {
    private ManifestClaims() {}

    static Map<String, String> targets(ObjectNode declared, Map<String, String> recorded) {
        String sts = Objects.name(declared);
        Map<String, String> out = new LinkedHashMap<>();
        for (String claim : recorded.keySet()) {
            for (JsonNode t : declared.path("spec").path("volumeClaimTemplates")) {
                String template = t.path("metadata").path("name").asText("");
                Quantity size = Quantity.parseOrNull(t.path("spec").path("resources").path("requests").path("storage").asText(""));
                if (size != null && ClaimNames.ordinalOf(claim, template, sts).isPresent()) {
                    out.put(claim, size.toString());
                }
            }
        }
        return out;
    }
}
