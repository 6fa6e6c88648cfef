package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.BeforeEach;

class KubeClusterTest extends OnAFakeServer {
    static final String STS_PATH = "/apis/apps/v1/namespaces/default/statefulsets/db";

    String liveList;

    KubeClusterTest() {
        super("s3cret");
    }

    @BeforeEach
    void readLiveList() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("statefulset-list-with-future-fields.json")) {
            liveList = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    ObjectNode liveStatefulSet() {
        server.on("GET", "/apis/apps/v1/namespaces/default/statefulsets", Answer.json(200, liveList));
        return cluster.listStatefulSets(NamespaceScope.of("default")).items().get(0);
    }

    static JsonNode tree(String json) throws IOException {
        return TreeMapper.MAPPER.readTree(json);
    }

    @Test
    void clientJavaModelsRejectTheFieldsThisLayerKeeps() throws IOException {
        // why the port is raw: client-java 27's own model refuses the very object a newer server sends
        String item = tree(liveList).path("items").get(0).toString();
        assertThatThrownBy(() -> JSON.deserialize(item, V1StatefulSet.class))
                .hasMessageContaining("The field `someNewMeta` in the JSON string is not defined in the `V1ObjectMeta` properties");
    }

    @Test
    void listingKeepsFieldsClientJavaDoesNotKnowAndFillsInKindAndVersion() {
        ObjectNode sts = liveStatefulSet();

        assertThat(sts.at("/metadata/someNewMeta/keep").asText()).isEqualTo("me");
        assertThat(sts.at("/spec/someFutureField/mode").asText()).isEqualTo("fast");
        assertThat(sts.at("/spec/someFutureField/ratio").decimalValue()).isEqualByComparingTo("0.125");
        assertThat(sts.at("/spec/template/spec/containers/0/futureContainerField").asBoolean()).isTrue();
        assertThat(sts.at("/status/futureStatusField").asText()).isEqualTo("x");
        assertThat(sts.path("apiVersion").asText()).isEqualTo("apps/v1");
        assertThat(sts.path("kind").asText()).isEqualTo("StatefulSet");
    }

    @Test
    void listingReturnsTheListResourceVersionToWatchFrom() {
        server.on("GET", "/apis/apps/v1/namespaces/default/statefulsets", Answer.json(200, liveList));
        assertThat(cluster.listStatefulSets(NamespaceScope.of("default")).resourceVersion()).isEqualTo("4711");
    }

    @Test
    void listingAllNamespacesUsesTheClusterWidePath() {
        server.on("GET", "/apis/apps/v1/statefulsets", Answer.json(200, liveList));
        server.on("GET", "/api/v1/persistentvolumeclaims",
                Answer.json(200, "{\"kind\":\"PersistentVolumeClaimList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[]}"));

        assertThat(cluster.listStatefulSets(NamespaceScope.all()).items()).hasSize(1);
        assertThat(cluster.listClaims(NamespaceScope.all()).items()).isEmpty();
        assertThat(server.requests()).extracting(Recorded::path)
                .containsExactly("/apis/apps/v1/statefulsets", "/api/v1/persistentvolumeclaims");
    }

    @Test
    void everyRequestCarriesTheUserAgent() {
        liveStatefulSet();
        assertThat(server.last().header("User-Agent")).isEqualTo("kubectl-stsresize/1.2.3");
    }

    @Test
    void noCredentialTravelsOverPlainHttpAsWithKubectl() {
        liveStatefulSet();
        assertThat(server.last().header("Authorization")).isNull();
    }

    @Test
    void applySendsTheLiveTreeBackWithEveryUnknownField() throws IOException {
        ObjectNode sts = liveStatefulSet();
        server.on("PATCH", STS_PATH, r -> Answer.json(200, r.body()));

        ObjectNode answer = cluster.applyStatefulSet(sts, "kubectl", true, true);

        Recorded r = server.last();
        assertThat(r.header("Content-Type")).startsWith("application/apply-patch+yaml");
        assertThat(r.query()).isEqualTo("fieldManager=kubectl&force=true&dryRun=All");
        JsonNode sent = tree(r.body());
        assertThat(sent).isEqualTo(sts);
        assertThat(sent.at("/spec/someFutureField/mode").asText()).isEqualTo("fast");
        assertThat(sent.at("/metadata/someNewMeta/keep").asText()).isEqualTo("me");
        assertThat(sent.at("/spec/template/spec/containers/0/futureContainerField").asBoolean()).isTrue();
        assertThat(answer).isEqualTo(sts);
    }

    @Test
    void applyWithoutDryRunOrForceSaysSoInTheQuery() {
        ObjectNode sts = liveStatefulSet();
        server.on("PATCH", STS_PATH, r -> Answer.json(200, r.body()));
        cluster.applyStatefulSet(sts, "helm", false, false);
        assertThat(server.last().query()).isEqualTo("fieldManager=helm&force=false");
    }

    @Test
    void createSendsTheTreeAsIsToTheCollection() throws IOException {
        ObjectNode sts = liveStatefulSet();
        ((ObjectNode) sts.get("metadata")).remove("resourceVersion");
        server.on("POST", "/apis/apps/v1/namespaces/default/statefulsets", r -> Answer.json(201, r.body()));

        cluster.createStatefulSet(sts, false);

        Recorded r = server.last();
        assertThat(r.header("Content-Type")).startsWith("application/json");
        assertThat(r.query()).isNull();
        assertThat(tree(r.body())).isEqualTo(sts);
    }

    @Test
    void orphanDeleteSendsExactlyOrphanAndTheUidPrecondition() throws IOException {
        server.on("DELETE", STS_PATH, Answer.json(200, "{\"kind\":\"StatefulSet\",\"apiVersion\":\"apps/v1\","
                + "\"metadata\":{\"name\":\"db\",\"finalizers\":[\"orphan\"]}}"));

        Optional<ObjectNode> answer = cluster.deleteStatefulSetOrphan("default", "db", "1a04-uid", false);

        Recorded r = server.last();
        assertThat(r.body()).isEqualTo("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                + "\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"1a04-uid\"}}");
        assertThat(r.query()).isNull();
        assertThat(answer).get().extracting(a -> a.at("/metadata/finalizers/0").asText()).isEqualTo("orphan");
    }

    @Test
    void dryRunOrphanDeleteCarriesDryRunInItsBodyWhereDeleteGoReadsIt() {
        server.on("DELETE", STS_PATH, Answer.json(200, "{\"kind\":\"StatefulSet\"}"));
        cluster.deleteStatefulSetOrphan("default", "db", "1a04-uid", true);
        // delete.go decodes a body and then never reads the query: a query dryRun would be ignored
        assertThat(server.last().query()).isNull();
        assertThat(server.last().body()).isEqualTo("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                + "\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"1a04-uid\"},\"dryRun\":[\"All\"]}");
    }

    @Test
    void orphanDeleteOfAnAbsentStatefulSetIsEmptyNotAnError() {
        assertThat(cluster.deleteStatefulSetOrphan("default", "db", "1a04-uid", false)).isEmpty();
    }

    @Test
    void orphanDeleteWithAStaleUidSurfacesTheServersConflictVerbatim() {
        String message = "Operation cannot be fulfilled on StatefulSet.apps \\\"db\\\": the UID in the precondition "
                + "(0000) does not match the UID in record (1a04). The object might have been deleted and then recreated";
        server.on("DELETE", STS_PATH, Answer.json(409, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"" + message + "\",\"reason\":\"Conflict\",\"code\":409}"));

        assertThatThrownBy(() -> cluster.deleteStatefulSetOrphan("default", "db", "0000", false))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.code()).isEqualTo(409);
                    assertThat(e.reason()).isEqualTo("Conflict");
                    assertThat(e.getMessage()).isEqualTo(message.replace("\\\"", "\""));
                    assertThat(e.operation()).isEqualTo("DELETE statefulsets default/db");
                });
    }

    @Test
    void claimPatchIsAMergePatchOfTheStorageRequestOnly() {
        server.on("PATCH", "/api/v1/namespaces/default/persistentvolumeclaims/data-db-0",
                Answer.json(200, "{\"kind\":\"PersistentVolumeClaim\",\"spec\":{\"resources\":{\"requests\":{\"storage\":\"20Gi\"}}}}"));

        ObjectNode answer = cluster.patchClaimStorage("default", "data-db-0", "20Gi", true);

        Recorded r = server.last();
        assertThat(r.header("Content-Type")).startsWith("application/merge-patch+json");
        assertThat(r.body()).isEqualTo("{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"20Gi\"}}}}");
        assertThat(r.query()).isEqualTo("fieldManager=kubectl-stsresize&dryRun=All");
        assertThat(answer.at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
    }

    @Test
    void theForbiddenTemplateUpdateComesThroughVerbatim() {
        String message = "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields"
                + " other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy'"
                + " and 'minReadySeconds' are forbidden";
        server.on("PATCH", STS_PATH, Answer.json(422, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":" + quote(message) + ",\"reason\":\"Invalid\",\"details\":{\"name\":\"db\","
                + "\"group\":\"apps\",\"kind\":\"StatefulSet\",\"causes\":[{\"reason\":\"FieldValueForbidden\",\"message\":"
                + "\"Forbidden: …\",\"field\":\"spec\"}]},\"code\":422}"));
        ObjectNode sts = liveStatefulSet();

        assertThatThrownBy(() -> cluster.applyStatefulSet(sts, "kubectl", true, true))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.reason()).isEqualTo("Invalid");
                    assertThat(e.getMessage()).isEqualTo(message)
                            .contains("spec: Forbidden: updates to statefulset spec for fields other than");
                    assertThat(e.status()).get()
                            .extracting(s -> s.at("/details/causes/0/field").asText()).isEqualTo("spec");
                });
    }

    @Test
    void aClaimWhoseClassCannotExpandIsA403WithTheServersMessage() {
        String message = "persistentvolumeclaims \"fixed-a\" is forbidden: only dynamically provisioned pvc can be resized"
                + " and the storageclass that provisions the pvc must support resize";
        server.on("PATCH", "/api/v1/namespaces/default/persistentvolumeclaims/fixed-a",
                Answer.json(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":" + quote(message) + ",\"reason\":\"Forbidden\","
                        + "\"details\":{\"name\":\"fixed-a\",\"kind\":\"persistentvolumeclaims\"},\"code\":403}"));

        assertThatThrownBy(() -> cluster.patchClaimStorage("default", "fixed-a", "2Gi", false))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.code()).isEqualTo(403);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    @Test
    void anUnknownFieldRefusedByServerSideApplyKeepsItsBareMessage() {
        String message = "failed to create typed patch object (default/db; apps/v1, Kind=StatefulSet): .spec.foo: field not declared in schema";
        server.on("PATCH", STS_PATH, Answer.json(500, "{\"code\":500,\"message\":" + quote(message) + "}"));
        ObjectNode sts = liveStatefulSet();

        assertThatThrownBy(() -> cluster.applyStatefulSet(sts, "kubectl", true, false))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.code()).isEqualTo(500);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    @Test
    void aThrottledAnswerCarriesItsRetryAfter() {
        server.on("GET", STS_PATH, Answer.json(429, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                + "\"message\":\"Too many requests, please try again later.\",\"reason\":\"TooManyRequests\",\"code\":429}")
                .withHeader("Retry-After", "3"));

        assertThatThrownBy(() -> cluster.getStatefulSet("default", "db"))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.retryAfter()).contains(Duration.ofSeconds(3));
                    assertThat(e.getMessage()).isEqualTo("Too many requests, please try again later.");
                });
    }

    @Test
    void aBodyThatIsNotAStatusIsNamedByStatusNeverShown() {
        server.on("GET", STS_PATH, Answer.json(502, "<html>Bad Gateway</html>").withHeader("Content-Type", "text/html"));
        assertThatThrownBy(() -> cluster.getStatefulSet("default", "db"))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.code()).as("still a 5xx: retried as one").isEqualTo(502);
                    assertThat(e.getMessage()).contains("was answered 502 Bad Gateway with content type text/html")
                            .doesNotContain("<html>");
                });
    }

    @Test
    void gettingAnAbsentObjectIsEmpty() {
        assertThat(cluster.getStatefulSet("default", "db")).isEmpty();
        assertThat(cluster.getClaim("default", "data-db-0")).isEmpty();
        assertThat(cluster.getPod("default", "db-0")).isEmpty();
        assertThat(cluster.getLease("default", "stsresize-db")).isEmpty();
    }

    @Test
    void aNameTheServerWouldRefuseReachesItEncodedAsOneSegment() {
        assertThat(cluster.getStatefulSet("default", "a/b c")).isEmpty();
        assertThat(server.last().rawPath()).isEqualTo("/apis/apps/v1/namespaces/default/statefulsets/a%2Fb%20c");
    }

    @Test
    void gettingAPresentObjectKeepsEveryField() {
        server.on("GET", "/api/v1/namespaces/default/pods/db-0", Answer.json(200,
                "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"db-0\",\"uid\":\"p0\"},"
                        + "\"spec\":{\"brandNewPodField\":[1,2]}}"));
        assertThat(cluster.getPod("default", "db-0")).get()
                .extracting(p -> p.at("/spec/brandNewPodField/1").asInt()).isEqualTo(2);
    }

    @Test
    void storageClassesForbiddenIsAnOutcomeNotAnError() {
        String message = clusterScopeForbidden("storageclasses");
        server.on("GET", "/apis/storage.k8s.io/v1/storageclasses", forbidden(message));

        assertThat(cluster.listStorageClasses()).isEqualTo(new StorageClassList.Forbidden(message));
    }

    @Test
    void storageClassesVisibleAreListed() {
        server.on("GET", "/apis/storage.k8s.io/v1/storageclasses", Answer.json(200, "{\"kind\":\"StorageClassList\","
                + "\"apiVersion\":\"storage.k8s.io/v1\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"expandable\"},"
                + "\"provisioner\":\"x\",\"allowVolumeExpansion\":true}]}"));

        StorageClassList list = cluster.listStorageClasses();

        assertThat(list).isInstanceOfSatisfying(StorageClassList.Visible.class, v -> {
            assertThat(v.items()).hasSize(1);
            assertThat(v.items().get(0).path("kind").asText()).isEqualTo("StorageClass");
            assertThat(v.items().get(0).path("allowVolumeExpansion").asBoolean()).isTrue();
        });
    }

    @Test
    void csiDriversForbiddenIsAnOutcomeAndVisibleOnesAreListed() {
        String message = clusterScopeForbidden("csidrivers");
        server.on("GET", "/apis/storage.k8s.io/v1/csidrivers", forbidden(message));
        assertThat(cluster.listCsiDrivers()).isEqualTo(new CsiDriverList.Forbidden(message));

        server.on("GET", "/apis/storage.k8s.io/v1/csidrivers", Answer.json(200, "{\"kind\":\"CSIDriverList\","
                + "\"apiVersion\":\"storage.k8s.io/v1\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"ebs.csi.aws.com\"},"
                + "\"spec\":{\"attachRequired\":true}}]}"));
        assertThat(cluster.listCsiDrivers()).isInstanceOfSatisfying(CsiDriverList.Visible.class, v -> {
            assertThat(v.items()).hasSize(1);
            assertThat(v.items().get(0).path("kind").asText()).isEqualTo("CSIDriver");
            assertThat(v.items().get(0).at("/metadata/name").asText()).isEqualTo("ebs.csi.aws.com");
        });
    }

    @Test
    void podsAndRevisionsAreListedByLabelSelector() {
        String empty = "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[]}";
        server.on("GET", "/api/v1/namespaces/default/pods", Answer.json(200, empty));
        server.on("GET", "/apis/apps/v1/namespaces/default/controllerrevisions", Answer.json(200, empty));

        cluster.listPods("default", "app=db,tier in (a,b)");
        assertThat(server.last().query()).isEqualTo("labelSelector=app%3Ddb%2Ctier%20in%20%28a%2Cb%29");
        cluster.listControllerRevisions("default", "app=db");
        assertThat(server.last().path()).isEqualTo("/apis/apps/v1/namespaces/default/controllerrevisions");
        assertThat(server.last().query()).isEqualTo("labelSelector=app%3Ddb");
    }

    @Test
    void accessReviewAsksForExactlyTheResourceAndReadsTheVerdict() throws IOException {
        server.on("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", Answer.json(201,
                "{\"kind\":\"SelfSubjectAccessReview\",\"status\":{\"allowed\":false,\"reason\":\"no RBAC policy matched\"}}"));

        AccessReview review = cluster.selfSubjectAccessReview(
                new ResourceAccess("create", "", "pods", "eviction", "default", ""));

        assertThat(review).isEqualTo(new AccessReview(false, "no RBAC policy matched"));
        assertThat(tree(server.last().body())).isEqualTo(tree("{\"apiVersion\":\"authorization.k8s.io/v1\","
                + "\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"resourceAttributes\":{\"verb\":\"create\","
                + "\"group\":\"\",\"resource\":\"pods\",\"subresource\":\"eviction\",\"namespace\":\"default\"}}}"));
    }

    @Test
    void rulesReviewAsksForTheNamespaceAndReadsTheRulesAsUntrustedInput() throws IOException {
        server.on("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", Answer.json(201,
                "{\"kind\":\"SelfSubjectRulesReview\",\"status\":{\"resourceRules\":[{\"verbs\":[\"patch\",7],"
                        + "\"apiGroups\":[\"\"],\"resources\":[\"persistentvolumeclaims\"]},{\"verbs\":\"*\"}],"
                        + "\"nonResourceRules\":[],\"incomplete\":false}}"));

        RulesReview review = cluster.selfSubjectRulesReview("shop");

        assertThat(tree(server.last().body())).isEqualTo(tree("{\"apiVersion\":\"authorization.k8s.io/v1\","
                + "\"kind\":\"SelfSubjectRulesReview\",\"spec\":{\"namespace\":\"shop\"}}"));
        assertThat(review.incomplete()).isFalse();
        assertThat(review.allows(new ResourceAccess("patch", "", "persistentvolumeclaims", "", "shop", ""))).isTrue();
        // a rule whose verbs are not a list grants nothing
        assertThat(review.allows(new ResourceAccess("delete", "apps", "statefulsets", "", "shop", ""))).isFalse();
    }

    @Test
    void aRulesReviewWithoutRulesIsIncomplete() {
        server.on("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", Answer.json(201,
                "{\"kind\":\"SelfSubjectRulesReview\",\"status\":{\"incomplete\":false}}"));
        assertThat(cluster.selfSubjectRulesReview("shop").incomplete()).isTrue();
    }

    @Test
    void anAllowedAccessReviewIsAllowed() {
        server.on("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", Answer.json(201,
                "{\"kind\":\"SelfSubjectAccessReview\",\"status\":{\"allowed\":true}}"));
        assertThat(cluster.selfSubjectAccessReview(
                new ResourceAccess("delete", "apps", "statefulsets", "", "default", "db")).allowed()).isTrue();
    }

    @Test
    void leaseUpdateIsAPutOfTheWholeTree() throws IOException {
        String lease = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"stsresize-db\","
                + "\"namespace\":\"default\",\"resourceVersion\":\"12\",\"annotations\":{\"stsresize.dev/phase\":\"grow\"}},"
                + "\"spec\":{\"holderIdentity\":\"me@host 42\",\"leaseDurationSeconds\":60}}";
        server.on("PUT", "/apis/coordination.k8s.io/v1/namespaces/default/leases/stsresize-db", r -> Answer.json(200, r.body()));

        cluster.updateLease((ObjectNode) tree(lease));

        assertThat(tree(server.last().body())).isEqualTo(tree(lease));
    }

    @Test
    void eventsAndLeasesAreCreatedInTheirObjectsNamespace() {
        server.on("POST", "/apis/events.k8s.io/v1/namespaces/shop/events", r -> Answer.json(201, r.body()));
        server.on("POST", "/apis/coordination.k8s.io/v1/namespaces/shop/leases", r -> Answer.json(201, r.body()));

        ObjectNode event = TreeMapper.MAPPER.createObjectNode();
        event.putObject("metadata").put("namespace", "shop").put("generateName", "db.");
        event.put("reportingController", "kubectl-stsresize");
        ObjectNode created = cluster.createEvent(event);
        assertThat(created.path("apiVersion").asText()).isEqualTo("events.k8s.io/v1");
        assertThat(created.path("kind").asText()).isEqualTo("Event");

        ObjectNode lease = TreeMapper.MAPPER.createObjectNode();
        lease.putObject("metadata").put("namespace", "shop").put("name", "stsresize-db");
        assertThat(cluster.createLease(lease).path("kind").asText()).isEqualTo("Lease");
    }

    @Test
    void evictionPostsAPolicyV1Eviction() throws IOException {
        server.on("POST", "/api/v1/namespaces/default/pods/db-0/eviction", Answer.json(201, "{\"kind\":\"Status\",\"status\":\"Success\"}"));

        cluster.evictPod("default", "db-0", false);

        assertThat(tree(server.last().body())).isEqualTo(tree("{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\","
                + "\"metadata\":{\"name\":\"db-0\",\"namespace\":\"default\"}}"));
    }

    @Test
    void anUnreachableServerIsOneSentenceNamingServerAndContext() throws IOException {
        String url = server.url();
        server.close();
        Cluster offline = Kubeconfigs.tokenCluster(home, url, "t");

        assertThatThrownBy(() -> offline.listStatefulSets(NamespaceScope.of("default")))
                .isInstanceOf(ServerUnreachable.class)
                .hasMessageStartingWith("cannot reach the Kubernetes API server " + url
                        + " (context \"fake\" of " + home.resolve("kubeconfig") + ") for LIST statefulsets default: "
                        + "connection refused.")
                .hasMessageContaining("kubectl cluster-info")
                .hasMessageNotContaining("\n")
                .isInstanceOfSatisfying(ServerUnreachable.class, e -> assertThat(e.worthRetrying()).isTrue());
    }

    /** What kube-apiserver says to user dev listing a cluster-scoped resource of storage.k8s.io it may not list. */
    static String clusterScopeForbidden(String resource) {
        return resource + ".storage.k8s.io is forbidden: User \"dev\" cannot list resource \"" + resource
                + "\" in API group \"storage.k8s.io\" at the cluster scope";
    }

    /** kube-apiserver's 403 Status of this message. */
    static Answer forbidden(String message) {
        return Answer.json(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + quote(message) + ",\"reason\":\"Forbidden\",\"code\":403}");
    }

    static String quote(String s) {
        return TreeMapper.MAPPER.getNodeFactory().textNode(s).toString();
    }

}
