package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the table's one-StatefulSet rows cannot show: several StatefulSets, namespaces, invariants of the values. */
class DeciderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static ObjectNode sts(String ns, String name, String size) {
        String meta = ns == null ? "{'name':'" + name + "'}" : "{'name':'" + name + "','namespace':'" + ns + "'}";
        return obj("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':" + meta + ",'spec':{'replicas':1,'serviceName':'" + name
                + "','template':{'spec':{'containers':[{'name':'c','image':'i','ports':[{'containerPort':80}],'env':[{'name':'A','value':'1'},{'name':'B','value':'2'}]}]}},"
                + "'volumeClaimTemplates':[{'metadata':{'name':'data'},'spec':{'storageClassName':'fast','resources':{'requests':{'storage':'" + size + "'}}}}]}}");
    }

    static ObjectNode claim(String ns, String name, String size) {
        return obj("{'metadata':{'name':'" + name + "','namespace':'" + ns + "'},'spec':{'storageClassName':'fast','resources':{'requests':{'storage':'"
                + size + "'}}},'status':{'phase':'Bound','capacity':{'storage':'" + size + "'}}}");
    }

    static final List<ObjectNode> CLASSES = List.of(obj("{'metadata':{'name':'fast'},'allowVolumeExpansion':true}"));

    @Test
    void decidesEveryDeclaredStatefulSetSortedByNamespaceThenName() {
        List<Decision> ds = Decider.decide(
                List.of(sts("b", "web", "2Gi"), sts("a", "web", "2Gi"), sts("a", "db", "2Gi")),
                new LiveState(List.of(sts("a", "db", "1Gi"), sts("b", "web", "1Gi")), List.of(), CLASSES));
        assertThat(ds).extracting(d -> d.namespace() + "/" + d.name() + " " + d.verdict().label())
                .containsExactly("a/db grow", "a/web absent", "b/web grow");
    }

    @Test
    void takesAMissingNamespaceAsDefaultOnBothSidesAndNeverMatchesAcrossNamespaces() {
        List<Decision> ds = Decider.decide(List.of(sts(null, "db", "2Gi"), sts("other", "db", "2Gi")),
                new LiveState(List.of(sts("", "db", "1Gi")),
                        List.of(claim("default", "data-db-0", "1Gi"), claim("other", "data-db-0", "1Gi")), CLASSES));
        assertThat(ds.get(0).namespace()).isEqualTo("default");
        assertThat(ds.get(0).verdict()).isEqualTo(Verdict.GROW);
        assertThat(ds.get(0).claimsToGrow()).hasSize(1);
        assertThat(ds.get(1).verdict()).as("the live db is in default, not in other").isEqualTo(Verdict.ABSENT);
    }

    @Test
    void aClassThatCannotExpandIsOneSentenceNamingEveryClaimItHoldsBack() {
        ObjectNode live = sts("a", "db", "1Gi");
        ((ObjectNode) live.path("spec")).put("replicas", 3);
        ObjectNode declared = sts("a", "db", "2Gi");
        ((ObjectNode) declared.path("spec")).put("replicas", 3);
        List<ObjectNode> fixed = List.of(obj("{'metadata':{'name':'fast'},'allowVolumeExpansion':false}"));
        Decision d = Decider.decideOne(declared, live, List.of(claim("a", "data-db-0", "1Gi"), claim("a", "data-db-1", "1Gi"),
                claim("a", "data-db-2", "1Gi")), fixed);
        assertThat(d.verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(d.detail()).isEqualTo("not-expandable: claims \"data-db-0\", \"data-db-1\", \"data-db-2\" must grow to 2Gi but their"
                + " StorageClass \"fast\" does not set allowVolumeExpansion: true; the API server refuses to resize them (a cluster admin"
                + " can allow expansion on the class); a copy to bigger volumes is possible: --copy (one pod at a time, each down while its"
                + " data is copied)");
        Decision one = Decider.decideOne(sts("a", "db", "2Gi"), sts("a", "db", "1Gi"), List.of(claim("a", "data-db-0", "1Gi")), fixed);
        assertThat(one.detail()).isEqualTo("not-expandable: claim \"data-db-0\" must grow to 2Gi but its StorageClass \"fast\" does not"
                + " set allowVolumeExpansion: true; the API server refuses to resize it (a cluster admin can allow expansion on the class);"
                + " a copy to bigger volumes is possible: --copy (one pod at a time, each down while its data is copied)");
    }

    @Test
    void listsTheDeclaredTemplatesOfAnAbsentStatefulSet() {
        Decision d = Decider.decideOne(sts("a", "db", "2Gi"), null, List.of(), CLASSES);
        assertThat(d.templates()).containsExactly(new TemplateSize("data", null, Quantity.parse("2Gi")));
        assertThat(d.changedTemplates()).isEmpty();
        assertThat(d.claims()).isEmpty();
        assertThat(d.recreate()).isFalse();
    }

    @Test
    void refusesToDecideATemplateWithoutAStorageRequest() {
        ObjectNode bad = sts("a", "db", "2Gi");
        ((ObjectNode) bad.at("/spec/volumeClaimTemplates/0/spec/resources/requests")).remove("storage");
        assertThatThrownBy(() -> Decider.decideOne(bad, sts("a", "db", "1Gi"), List.of(), CLASSES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("template \"data\" of a/db");
    }

    @Test
    void mentionsClaimsLeftAloneOnlyWhenThereAreSome() {
        Decision all = Decider.decideOne(sts("a", "db", "2Gi"), sts("a", "db", "1Gi"), List.of(claim("a", "data-db-0", "1Gi")), CLASSES);
        Decision ahead = Decider.decideOne(sts("a", "db", "2Gi"), sts("a", "db", "1Gi"),
                List.of(claim("a", "data-db-0", "1Gi"), claim("a", "data-db-1", "3Gi")), CLASSES);
        assertThat(all.detail()).doesNotContain("left alone").contains("1 claim to grow");
        assertThat(ahead.detail()).contains("1 claim already at or above the target, left alone");
        assertThat(ahead.changedTemplates()).extracting(TemplateSize::name).containsExactly("data");
    }

    @Test
    void speaksOfOneOrSeveralLaggingClaims() {
        ObjectNode live = sts("a", "db", "2Gi");
        Decision one = Decider.decideOne(sts("a", "db", "2Gi"), live, List.of(claim("a", "data-db-0", "1Gi")), CLASSES);
        Decision two = Decider.decideOne(sts("a", "db", "2Gi"), live,
                List.of(claim("a", "data-db-0", "1Gi"), claim("a", "data-db-1", "1Gi")), CLASSES);
        assertThat(one.detail()).contains("1 claim lags behind: grow it,");
        assertThat(two.detail()).contains("2 claims lag behind: grow them,");
    }

    @Test
    void aClaimWhoseCapacityLagsItsRequestIsStillGrowingNotUpToDate() {
        ObjectNode live = sts("a", "db", "20Gi");
        ObjectNode resizing = claim("a", "data-db-0", "20Gi");
        ((ObjectNode) resizing.get("status").get("capacity")).put("storage", "10Gi");
        Decision d = Decider.decideOne(sts("a", "db", "20Gi"), live, List.of(resizing, claim("a", "data-db-1", "20Gi")), CLASSES);

        assertThat(d.verdict()).as("nothing for the plugin to write: the resizer is at work").isEqualTo(Verdict.UP_TO_DATE);
        assertThat(d.detail()).startsWith("resize in progress: claim \"data-db-0\" capacity 10Gi of 20Gi;")
                .doesNotContain("already match").doesNotContain("data-db-1");
        Decision done = Decider.decideOne(sts("a", "db", "20Gi"), live, List.of(claim("a", "data-db-0", "20Gi")), CLASSES);
        assertThat(done.detail()).isEqualTo("the live templates and claims already match the manifest");
    }

    @Test
    void namesAtMostThreePodTemplatePaths() {
        ObjectNode live = sts("a", "db", "1Gi");
        ObjectNode three = sts("a", "db", "2Gi");
        ObjectNode c = (ObjectNode) three.at("/spec/template/spec/containers/0");
        c.put("image", "j");
        ((ObjectNode) c.at("/env/0")).put("value", "x");
        ((ObjectNode) c.at("/env/1")).put("value", "y");
        Decision d3 = Decider.decideOne(three, live, List.of(), CLASSES);
        assertThat(d3.warnings()).singleElement().asString()
                .contains("spec.template.spec.containers[0].image", "env[1].value").doesNotContain("...");
        ObjectNode four = three.deepCopy();
        ((ObjectNode) four.at("/spec/template/spec/containers/0/ports/0")).put("containerPort", 81);
        Decision d4 = Decider.decideOne(four, live, List.of(), CLASSES);
        assertThat(d4.warnings()).singleElement().asString().contains("ports[0].containerPort", ", ...)").doesNotContain("env[1]");
    }

    @Test
    void seesNoPodTemplateChangeInANumberWrittenDifferently() {
        ObjectNode declared = sts("a", "db", "2Gi");
        ((ObjectNode) declared.at("/spec/template/spec/containers/0/ports/0")).put("containerPort", 80.0);
        assertThat(Decider.decideOne(declared, sts("a", "db", "1Gi"), List.of(), CLASSES).warnings()).isEmpty();
    }

    @Test
    void ordersFindingsByReasonWhateverOrderTheyCameIn() {
        Refusal r = new Refusal("a", "db", List.of(new Finding(Reason.CLAIM_UNBOUND, "u"), new Finding(Reason.SHRINK, "s"),
                new Finding(Reason.TEMPLATE_CHANGED, "t")), List.of(), List.of(), List.of());
        assertThat(r.reason()).isEqualTo(Reason.TEMPLATE_CHANGED);
        assertThat(r.verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(r.detail()).isEqualTo("template-changed: t; shrink: s; claim-unbound: u");
        Refusal blocked = new Refusal("a", "db", List.of(new Finding(Reason.FORBIDDEN, "f"), new Finding(Reason.CLAIM_UNBOUND, "u")),
                List.of(), List.of(), List.of());
        assertThat(blocked.verdict()).isEqualTo(Verdict.BLOCKED);
        assertThat(blocked.reason()).isEqualTo(Reason.CLAIM_UNBOUND);
    }

    @Test
    void keepsPlansAndRefusalsApart() {
        assertThatThrownBy(() -> new Refusal("a", "db", List.of(), List.of(), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Plan("a", "db", Verdict.REFUSED, List.of(), List.of(), List.of(), ""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Plan("a", "db", Verdict.BLOCKED, List.of(), List.of(), List.of(), ""))
                .isInstanceOf(IllegalArgumentException.class);
        ClaimState c = new ClaimState("data-db-0", "data", 0, Quantity.parse("1Gi"), null, "Bound", "fast", true,
                Quantity.parse("2Gi"), false, true);
        Refusal r = new Refusal("a", "db", List.of(new Finding(Reason.SHRINK, "s")), List.of(), List.of(c), List.of());
        assertThat(r.claimsToGrow()).as("a refusal grows nothing").isEmpty();
        assertThat(r.recreate()).isFalse();
        assertThat(new Plan("a", "db", Verdict.GROW_CLAIMS, List.of(), List.of(c), List.of(), "").claimsToGrow()).containsExactly(c);
        assertThat(new Plan("a", "db", Verdict.UP_TO_DATE, List.of(), List.of(c), List.of(), "").claimsToGrow()).isEmpty();
    }

    @Test
    void labelsVerdictsAndReasonsAsTheJsonContractSpellsThem() {
        assertThat(List.of(Verdict.values())).extracting(Verdict::label)
                .containsExactly("grow", "grow-claims", "copy", "up-to-date", "refused", "blocked", "absent");
        assertThat(List.of(Reason.values())).extracting(Reason::label).containsExactly("template-changed", "other-immutable",
                "owned", "shrink", "not-expandable", "no-resizer", "copy-read-write-many", "copy-block-volume", "claim-unbound",
                "resize-failed", "copy-no-volume", "copy-budget", "forbidden");
        assertThat(List.of(Reason.values())).filteredOn(Reason::permanent).hasSize(8);
    }

    @Test
    void takesAnEmptyStorageClassNameAsNoClass() {
        ObjectNode noClass = claim("a", "data-db-0", "1Gi");
        ((ObjectNode) noClass.get("spec")).put("storageClassName", "");
        List<ObjectNode> classes = List.of(obj("{'metadata':{'name':''},'allowVolumeExpansion':true}"));
        Decision known = Decider.decideOne(sts("a", "db", "2Gi"), sts("a", "db", "1Gi"), List.of(noClass), classes, true);
        Decision unknown = Decider.decideOne(sts("a", "db", "2Gi"), sts("a", "db", "1Gi"), List.of(noClass), classes, false);
        assertThat(known.verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(known.detail()).contains("it has no StorageClass");
        assertThat(known.claims().get(0).storageClass()).isNull();
        assertThat(unknown.verdict()).as("no class cannot expand, whether the classes could be read or not").isEqualTo(Verdict.REFUSED);
    }

    @Test
    void matchesOnlyPlainDecimalOrdinals() {
        assertThat(ClaimNames.ordinalOf("data-db-0", "data", "db")).hasValue(0);
        assertThat(ClaimNames.ordinalOf("data-db-12", "data", "db")).hasValue(12);
        assertThat(ClaimNames.ordinalOf("data-db-012", "data", "db")).isEmpty();
        assertThat(ClaimNames.ordinalOf("data-db-", "data", "db")).isEmpty();
        assertThat(ClaimNames.ordinalOf("data-db-1e3", "data", "db")).isEmpty();
        assertThat(ClaimNames.ordinalOf(null, "data", "db")).isEmpty();
        assertThat(ClaimNames.ordinalOf("data-web-app-0", "data", "web")).isEmpty();
        assertThat(ClaimNames.ordinalOf("data-web-app-0", "data-web", "app")).hasValue(0);
        assertThat(ClaimNames.ordinalOf("data-db-9999999999", "data", "db")).as("beyond any ordinal").isEmpty();
    }
}
