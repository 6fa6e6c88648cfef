#!/bin/sh
# stsresize.sh: the pre-rollout Job's converge, in POSIX sh with kubectl and jq only.
#
# Input (environment):
#   RESIZE_NAMESPACE  the namespace of the StatefulSets
#   RESIZE_DECLARED   a JSON array, one object per declared StatefulSet: its name, its immutable spec
#                     fields as the manifest writes them (serviceName, podManagementPolicy, selector,
#                     revisionHistoryLimit…) and its volumeClaimTemplates (see JobRenderer/DeclaredOf)
# Output: one line per StatefulSet on stdout, `verdict <namespace>/<name> <verdict> [<reason>]`, with
# the verdict and reason names of `kubectl stsresize plan`; progress and errors on stderr.
# Exit: 0 converged or nothing to do; 2 refused (permanent: where render-job wrote a podFailurePolicy,
#       for Kubernetes 1.26 and later, it fails the Job at once; on older servers the Job retries it up to
#       its backoffLimit, and each retry refuses again, writing nothing);
#       1 anything else (transient: the Job retries).
#
# It decides as the Java Decider does, restated in jq, with two deliberate differences:
# - it does not read allowVolumeExpansion from the StorageClasses: it dry-run-patches every claim it
#   must grow and lets the API server's resize admission answer (403 "only dynamically provisioned
#   pvc can be resized…" = not-expandable). An unbound claim is therefore `blocked`, even on a class
#   that could never expand (the server validates an unbound claim before admission).
# - it judges only the immutable fields RESIZE_DECLARED carries, which are all of the manifest's.
# Its only cluster-scoped reads are `get` of a StorageClass and `list` of CSIDrivers, and only where
# render-job granted them (a ClusterRole and its binding rendered beside the Job; none with
# --namespaced-only): with them it refuses a class to grow that has no resizer (no-resizer:
# kubernetes.io/no-provisioner, or a CSI driver without a CSIDriver object, in-tree names mapped as
# CSI migration does) as the Java decision does; without them (403) it says so and goes on, as plan does.
# It decides every StatefulSet before it writes anything: one refused or blocked StatefulSet means no
# write at all, so a failed Job never leaves a StatefulSet orphan-deleted behind a failed rollout.
# A dry run proves each claim's growth alone: a quota that fits each but not all of them refuses a
# later claim for real (exit 1); the claims grown stay grown, the StatefulSet is not deleted, and the
# Job's retry finishes the work once the quota allows it.
set -u

ns=${RESIZE_NAMESPACE:-}
declared=${RESIZE_DECLARED:-}
if [ -z "$ns" ] || [ -z "$declared" ]; then
  echo "error: RESIZE_NAMESPACE and RESIZE_DECLARED must be set (the Job rendered by kubectl stsresize render-job sets both)" >&2
  exit 1
fi
for tool in kubectl jq; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool is not on PATH; run this script in an image with kubectl and jq" >&2
    exit 1
  fi
done
if ! printf '%s' "$declared" | jq -e 'type == "array"' >/dev/null 2>&1; then
  echo "error: RESIZE_DECLARED is not a JSON array; render the Job again with kubectl stsresize render-job" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/stsresize.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# The decision, restated from dev.stsresize.plan.Decider and Trees. Quantities compare by value.
# shellcheck disable=SC2016 # jq program: its $variables are jq's
lib='
def qty:
  if type == "number" then .
  elif type != "string" then null
  else ([capture("^(?<n>[0-9]+(\\.[0-9]*)?|\\.[0-9]+)(?<s>Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$")] | first) as $m
    | if $m == null then null
      else ($m.n | if startswith(".") then "0" + . else . end | tonumber) as $n
        | ($m.s // "") as $s
        | if ($s | test("^[eE]")) then $n * pow(10; ($s[1:] | tonumber))
          else $n * {"": 1, "m": 0.001, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
                     "Ki": 1024, "Mi": 1048576, "Gi": 1073741824, "Ti": 1099511627776,
                     "Pi": 1125899906842624, "Ei": 1152921504606846976}[$s] end end end;
# Go omitempty, as the server stores objects: nulls, empty objects and empty arrays are absent.
def omitempty:
  if type == "object" then (map_values(omitempty) | with_entries(select(.value != null)))
    | (if length == 0 then null else . end)
  elif type == "array" then map(omitempty) | (if length == 0 then null else . end)
  else . end;
# A template without what the server adds, and without the storage request (compared separately).
def comparable:
  del(.apiVersion, .kind, .status)
  | if .spec.volumeMode == "Filesystem" then del(.spec.volumeMode) else . end
  | if (.spec.resources.requests | type) == "object" then del(.spec.resources.requests.storage) else . end
  | reduce ("requests", "limits") as $k (.;
      if (.spec.resources[$k] | type) == "object"
      then .spec.resources[$k] |= map_values((qty) as $q | if $q == null then . else $q end) else . end)
  | omitempty;
def mutable: ["replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy",
              "minReadySeconds", "volumeClaimTemplates"];
# The spec fields an update may not change, defaults applied (v1.32).
def immutable:
  with_entries(select(.key as $k | mutable | index($k) | not)) | map_values(omitempty)
  | with_entries(select(.value != null))
  | if .podManagementPolicy == "OrderedReady" then del(.podManagementPolicy) else . end
  | if .revisionHistoryLimit == 10 then del(.revisionHistoryLimit) else . end
  | if .serviceName == "" then del(.serviceName) else . end;
def ordinal($template; $sts):
  ($template + "-" + $sts + "-") as $p
  | if startswith($p) and (.[($p | length):] | test("^(0|[1-9][0-9]{0,8})$"))
    then .[($p | length):] | tonumber else null end;
def storage: .spec.resources.requests.storage;
# The resizer of a provisioner, as dev.stsresize.plan.Resizers decides it; $drivers: the CSIDriver names,
# or null when they could not be read. Answers {absent: why} | {unchecked: why} | {}.
def resizer($drivers):
  . as $p
  | {"kubernetes.io/aws-ebs": "ebs.csi.aws.com", "kubernetes.io/gce-pd": "pd.csi.storage.gke.io",
     "kubernetes.io/azure-disk": "disk.csi.azure.com", "kubernetes.io/azure-file": "file.csi.azure.com",
     "kubernetes.io/cinder": "cinder.csi.openstack.org", "kubernetes.io/vsphere-volume": "csi.vsphere.vmware.com",
     "kubernetes.io/portworx-volume": "pxd.portworx.com"}[$p] as $migrated
  | ($migrated // $p) as $driver
  | if $p == "" then {}
    elif $p == "kubernetes.io/no-provisioner" then
      {absent: "provisioner kubernetes.io/no-provisioner makes volumes by hand (local volumes) and no resizer grows them; keep the size, or move the data to a class whose CSI driver supports expansion"}
    elif $migrated == null and ($p | startswith("kubernetes.io/")) then
      {unchecked: "the in-tree provisioner \($p) has no CSI migration; unless this cluster still grows its volumes, the claims will wait for ever"}
    elif $drivers == null then
      {unchecked: "the CSIDrivers could not be read, so whether CSI driver \($driver) is installed with a resizer is unchecked"}
    elif ($drivers | index($driver)) != null then {}
    elif $p == "kubernetes.io/portworx-volume" then
      {unchecked: "no CSIDriver \($driver): \($p) volumes grow only where CSIMigrationPortworx is off"}
    else {absent: "provisioner \($p) has no CSIDriver \"\($driver)\" in the cluster, so no external-resizer serves it; deploy the \($driver) CSI driver with its resizer (external-resizer) and CSIDriver object, or keep the size"}
    end;
# $d: one RESIZE_DECLARED item; $live: the live StatefulSet; $claims: the claims of the namespace.
def decide($d; $live; $claims):
  ($d.volumeClaimTemplates // []) as $dt
  | ($live.spec.volumeClaimTemplates // []) as $lt
  | ($lt | map({key: .metadata.name, value: .}) | from_entries) as $lmap
  | ($dt | map(.metadata.name)) as $dnames
  | [ ($dt[] | select($lmap[.metadata.name] == null) | "template \"\(.metadata.name)\" is added"),
      ($lt[] | select(.metadata.name as $n | $dnames | index($n) | not) | "template \"\(.metadata.name)\" is removed"),
      ($dt[] | . as $t | $lmap[$t.metadata.name] | select(. != null)
        | select((comparable) != ($t | comparable)) | "template \"\($t.metadata.name)\" changes in more than its storage request")
    ] as $changed
  | (($d | del(.name, .volumeClaimTemplates) | immutable) as $a | ($live.spec | immutable) as $b
      | if $a == $b then [] else ["an immutable spec field changes (declared \($a | tojson), live \($b | tojson))"] end) as $other
  | [ $live.metadata.ownerReferences // [] | .[] | select(.controller == true) | "controlled by \(.kind) \"\(.name)\"" ] as $owned
  | [ $dt[] | . as $t | $lmap[$t.metadata.name] | select(. != null)
      | select(($t | storage | qty) < (storage | qty))
      | "template \"\($t.metadata.name)\" would shrink from \(storage) to \($t | storage)" ] as $shrink
  | [ $dt[] | . as $t | $lmap[$t.metadata.name] | select(. != null)
      | select(($t | storage | qty) != (storage | qty)) ] as $grown
  | [ $dt[] | . as $t | ($t | storage) as $to
      | [ $claims[] | (.metadata.name | ordinal($t.metadata.name; $d.name)) as $o | select($o != null)
          | select((storage | qty) as $r | $r == null or $r < ($to | qty))
          | {claim: .metadata.name, ordinal: $o, from: storage, to: $to, phase: (.status.phase // ""),
             class: (.spec.storageClassName // "")} ]
      | sort_by(.ordinal) | .[] ] as $grow
  | if ($changed | length) > 0 then {verdict: "refused", reason: "template-changed", detail: $changed}
    elif ($other | length) > 0 then {verdict: "refused", reason: "other-immutable", detail: $other}
    elif ($owned | length) > 0 then {verdict: "refused", reason: "owned", detail: $owned}
    elif ($shrink | length) > 0 then {verdict: "refused", reason: "shrink", detail: $shrink}
    elif ($grown | length) > 0 then {verdict: "grow", grow: $grow}
    elif ($grow | length) > 0 then {verdict: "grow-claims", grow: $grow}
    else {verdict: "up-to-date", grow: []} end
  | .uid = $live.metadata.uid;
'

# kubectl in the namespace; its stderr to a file so a refusal can be classified.
kc() { kubectl --namespace "$ns" "$@" 2>"$work/err"; }
err() { tr '\n' ' ' <"$work/err"; }

# A CLI run (kubectl stsresize apply) holds Lease stsresize-<name>: held while its holder is set and
# renewTime + leaseDurationSeconds is in the future (dev.stsresize.job.LeaseConvention).
held_by() {
  kc get lease "$(printf '%s' "stsresize-$1" | cut -c1-253)" --ignore-not-found -o json >"$work/lease" || return 2
  jq -r '
    if (.spec.holderIdentity // "") == "" then empty
    else ((.spec.renewTime // "") | sub("\\.[0-9]+"; "") | (try fromdateiso8601 catch 0)) as $renewed
      | if $renewed + (.spec.leaseDurationSeconds // 60) > now then .spec.holderIdentity else empty end end
  ' <"$work/lease" 2>/dev/null
}

# The CSIDriver names as a JSON array, read once; "null" when they cannot be read.
csi_drivers() {
  if [ ! -f "$work/drivers.json" ]; then
    if kc get csidrivers.storage.k8s.io -o json >"$work/drivers-list.json"; then
      jq -c '[.items[].metadata.name]' <"$work/drivers-list.json" >"$work/drivers.json"
    else
      echo "warning: cannot list CSIDrivers ($(err)); whether each CSI class has a resizer is unchecked" >&2
      echo null >"$work/drivers.json"
    fi
  fi
  cat "$work/drivers.json"
}

# no_resizer NAME I: true when a class of a claim that plan-I grows has no resizer (said on stderr);
# a class that cannot be read is said and left to the dry run (a missing one is not-expandable there).
no_resizer() {
  found=1
  for cls in $(jq -r '[.grow[].class | select(. != "")] | unique | .[]' <"$work/plan-$2.json"); do
    if ! kc get storageclasses.storage.k8s.io "$cls" -o json >"$work/class.json"; then
      if grep -q 'NotFound' "$work/err"; then
        continue
      fi
      echo "warning: $ns/$1: cannot read StorageClass $cls ($(err)); whether its provisioner has a resizer is unchecked" >&2
      continue
    fi
    drivers=$(csi_drivers)
    jq --argjson d "$drivers" "$lib .provisioner // \"\" | resizer(\$d)" <"$work/class.json" >"$work/resizer.json" || exit 1
    claims=$(jq -r --arg c "$cls" '[.grow[] | select(.class == $c) | .claim] | join(", ")' <"$work/plan-$2.json")
    if jq -e 'has("absent")' <"$work/resizer.json" >/dev/null; then
      echo "$ns/$1: claims $claims must grow but StorageClass $cls: $(jq -r .absent <"$work/resizer.json")" >&2
      found=0
    elif jq -e 'has("unchecked")' <"$work/resizer.json" >/dev/null; then
      echo "warning: $ns/$1: claims $claims of StorageClass $cls: $(jq -r .unchecked <"$work/resizer.json")" >&2
    fi
  done
  return $found
}

count=$(printf '%s' "$declared" | jq 'length')
if ! kc get persistentvolumeclaims -o json >"$work/claims.json"; then
  echo "error: cannot list the claims of namespace $ns: $(err)" >&2
  exit 1
fi

refused=0
blocked=0
i=0
while [ "$i" -lt "$count" ]; do
  i=$((i + 1))
  printf '%s' "$declared" | jq ".[$((i - 1))]" >"$work/declared-$i.json"
  name=$(jq -r '.name' <"$work/declared-$i.json")
  if holder=$(held_by "$name"); then :; else
    echo "error: cannot read Lease $ns/stsresize-$name: $(err)" >&2
    echo "verdict $ns/$name blocked forbidden"
    blocked=1
    continue
  fi
  if [ -n "$holder" ]; then
    echo "$ns/$name: a CLI run of kubectl stsresize ($holder) holds Lease $ns/stsresize-$name; retrying later" >&2
    echo "verdict $ns/$name blocked locked"
    blocked=1
    continue
  fi
  if ! kc get statefulset "$name" --ignore-not-found -o json >"$work/live.json"; then
    echo "error: cannot read StatefulSet $ns/$name: $(err)" >&2
    echo "verdict $ns/$name blocked forbidden"
    blocked=1
    continue
  fi
  if [ ! -s "$work/live.json" ]; then
    echo "verdict $ns/$name absent"
    continue
  fi
  jq -n --slurpfile d "$work/declared-$i.json" --slurpfile live "$work/live.json" --slurpfile c "$work/claims.json" \
    "$lib decide(\$d[0]; \$live[0]; \$c[0].items)" >"$work/plan-$i.json" || exit 1
  verdict=$(jq -r '.verdict' <"$work/plan-$i.json")
  if [ "$verdict" = refused ]; then
    echo "$ns/$name: refused: $(jq -r '.detail | join("; ")' <"$work/plan-$i.json")" >&2
    echo "verdict $ns/$name refused $(jq -r '.reason' <"$work/plan-$i.json")"
    refused=1
    continue
  fi
  # Prove every claim write with the server before making any: admission knows the StorageClasses.
  reason=""
  for claim in $(jq -r '.grow[] | select(.phase != "Bound") | .claim' <"$work/plan-$i.json"); do
    echo "$ns/$name: claim $claim must grow but is not Bound; the API server refuses to resize it until it binds" >&2
    [ -n "$reason" ] || reason='claim-unbound'
  done
  for row in $(jq -r '.grow[] | select(.phase == "Bound") | "\(.claim)=\(.to)"' <"$work/plan-$i.json"); do
    claim=${row%%=*}
    to=${row#*=}
    if ! kc patch persistentvolumeclaim "$claim" --type=merge --dry-run=server -o name \
      -p "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"$to\"}}}}" >/dev/null; then
      echo "$ns/$name: claim $claim cannot grow to $to: $(err)" >&2
      if grep -q 'only dynamically provisioned pvc can be resized' "$work/err"; then
        reason=not-expandable
      elif [ "$reason" != not-expandable ]; then
        # quota ("exceeded quota"), RBAC ("cannot patch resource") or anything else: transient
        reason=${reason:-forbidden}
      fi
    fi
  done
  if no_resizer "$name" "$i" && [ "$reason" != not-expandable ]; then
    reason=no-resizer
  fi
  if [ "$verdict" = grow ]; then
    uid=$(jq -r '.uid' <"$work/plan-$i.json")
    # dryRun in the body: kube-apiserver's delete.go reads a DELETE's options from its body and then
    # never the query (kubectl patch --dry-run=server puts it in the query, where patch.go reads it)
    printf '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan","preconditions":{"uid":"%s"},"dryRun":["All"]}' \
      "$uid" >"$work/dry-delete.json"
    if ! kc delete --raw "/apis/apps/v1/namespaces/$ns/statefulsets/$name" -f "$work/dry-delete.json" >/dev/null; then
      echo "$ns/$name: the orphan delete would fail: $(err)" >&2
      reason=${reason:-forbidden}
    fi
  fi
  case "$reason" in
    not-expandable | no-resizer) echo "verdict $ns/$name refused $reason"; refused=1 ;;
    "") echo "verdict $ns/$name $verdict" ;;
    *) echo "verdict $ns/$name blocked $reason"; blocked=1 ;;
  esac
done

if [ "$refused" = 1 ]; then
  echo "refused: nothing written; change the manifest (see the lines above), which renders a new Job" >&2
  exit 2
fi
if [ "$blocked" = 1 ]; then
  echo "blocked: nothing written; the Job retries" >&2
  exit 1
fi

# Act: grow the claims (re-read before each write, never downward), then orphan-delete with the UID decided on.
i=0
while [ "$i" -lt "$count" ]; do
  i=$((i + 1))
  [ -f "$work/plan-$i.json" ] || continue
  name=$(jq -r '.name' <"$work/declared-$i.json")
  for row in $(jq -r '.grow[] | "\(.claim)=\(.to)"' <"$work/plan-$i.json"); do
    claim=${row%%=*}
    to=${row#*=}
    if ! kc get persistentvolumeclaim "$claim" -o json >"$work/claim.json"; then
      echo "error: cannot read claim $ns/$claim: $(err)" >&2
      exit 1
    fi
    if jq -e --arg to "$to" "$lib (storage | qty) as \$r | \$r != null and \$r >= (\$to | qty)" <"$work/claim.json" >/dev/null; then
      echo "$ns/$name: claim $claim already at or above $to" >&2
      continue
    fi
    if ! kc patch persistentvolumeclaim "$claim" --type=merge -o name \
      -p "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"$to\"}}}}" >/dev/null; then
      echo "error: growing claim $ns/$claim to $to failed: $(err)" >&2
      exit 1
    fi
    echo "$ns/$name: claim $claim grown to $to" >&2
  done
  [ "$(jq -r '.verdict' <"$work/plan-$i.json")" = grow ] || continue
  uid=$(jq -r '.uid' <"$work/plan-$i.json")
  printf '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan","preconditions":{"uid":"%s"}}' \
    "$uid" >"$work/delete.json"
  if ! kc delete --raw "/apis/apps/v1/namespaces/$ns/statefulsets/$name" -f "$work/delete.json" >/dev/null; then
    echo "error: orphan-deleting StatefulSet $ns/$name (uid $uid) failed: $(err)" >&2
    exit 1
  fi
  # The garbage collector removes the owner references, then the object: wait for that, bounded.
  tries=0
  while :; do
    if ! kc get statefulset "$name" --ignore-not-found -o 'jsonpath={.metadata.uid}' >"$work/uid"; then
      echo "error: cannot read StatefulSet $ns/$name: $(err)" >&2
      exit 1
    fi
    [ "$(cat "$work/uid")" = "$uid" ] || break
    tries=$((tries + 1))
    if [ "$tries" -ge 120 ]; then
      echo "error: StatefulSet $ns/$name is still there 120 s after its orphan delete; the garbage collector has not finished" >&2
      exit 1
    fi
    sleep 1
  done
  echo "$ns/$name: orphan-deleted (pods and claims kept); apply the declared StatefulSet to adopt them" >&2
done
exit 0
