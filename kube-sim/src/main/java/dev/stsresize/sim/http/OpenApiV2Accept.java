package dev.stsresize.sim.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which form of {@code /openapi/v2} an {@code Accept} header gets, as kube-openapi's
 * {@code RegisterOpenAPIVersionedService} (pkg/handler/handler.go) decides: the clauses sorted as goautoneg's
 * {@code ParseAccept} sorts them (quality first, then the more specific), the first that matches
 * {@code application/json}, {@code application/com.github.proto-openapi.spec.v2@v1.0+protobuf} (deprecated, what
 * client-go sends) or {@code application/com.github.proto-openapi.spec.v2.v1.0+protobuf} wins; none: 406. No
 * header is {@code *}{@code /*}.
 */
final class OpenApiV2Accept {
    /** The Content-Type of the protobuf answer, also for the deprecated request type. */
    static final String PROTOBUF_TYPE = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

    enum Form { JSON, PROTOBUF, NONE }

    private record Clause(String type, String subType, double q) {}

    private static final String[][] ACCEPTED = {
        {"application", "json"},
        {"application", "com.github.proto-openapi.spec.v2@v1.0+protobuf"},
        {"application", "com.github.proto-openapi.spec.v2.v1.0+protobuf"},
    };

    private OpenApiV2Accept() {}

    static Form negotiate(String accept) {
        for (Clause c : clauses(accept == null || accept.isBlank() ? "*/*" : accept)) {
            for (String[] a : ACCEPTED) {
                if ((c.type().equals(a[0]) || c.type().equals("*")) && (c.subType().equals(a[1]) || c.subType().equals("*"))) {
                    return a[1].equals("json") ? Form.JSON : Form.PROTOBUF;
                }
            }
        }
        return Form.NONE;
    }

    /** goautoneg.ParseAccept: "type/subtype;q=0.5" each, sorted by q, then type/subtype before type/* before *\/*. */
    private static List<Clause> clauses(String header) {
        List<Clause> out = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] params = part.trim().split(";");
            String[] mt = params[0].trim().split("/", 2);
            String type = mt[0].trim();
            String sub = mt.length > 1 ? mt[1].trim() : "*";
            double q = 1.0;
            for (int i = 1; i < params.length; i++) {
                String[] kv = params[i].trim().split("=", 2);
                if (kv.length == 2 && kv[0].trim().equals("q")) {
                    try {
                        q = Double.parseDouble(kv[1].trim());
                    } catch (NumberFormatException ignored) {
                        // goautoneg keeps q at 1 when it cannot parse it
                    }
                }
            }
            out.add(new Clause(type, sub, q));
        }
        out.sort(Comparator.comparingDouble((Clause c) -> -c.q())
                .thenComparingInt(c -> c.type().equals("*") ? 2 : c.subType().equals("*") ? 1 : 0));
        return out;
    }
}
