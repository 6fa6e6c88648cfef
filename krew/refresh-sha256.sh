#!/bin/sh
# Before a release: sets every sha256 of plugin.yaml to the archive this checkout builds, which
# `mvn -B -Prelease verify` then checks (the default build does not). Run from anywhere:
#   mvn -B -q package -DskipTests && krew/refresh-sha256.sh && mvn -B -Prelease verify
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's/^  version: \(v[^ ]*\)$/\1/p' plugin.yaml)
sum=target/kubectl-stsresize-$version.tar.gz.sha256
if [ ! -f "$sum" ]; then
  echo "error: $sum is missing; build the archive first (mvn -B -q package -DskipTests)." >&2
  exit 1
fi
sha=$(cut -c1-64 "$sum")
sed "s/^\(    sha256: \)[0-9a-f]\{64\}\$/\1$sha/" plugin.yaml > plugin.yaml.tmp
mv plugin.yaml.tmp plugin.yaml
echo "plugin.yaml: sha256 $sha (kubectl-stsresize-$version.tar.gz)"
