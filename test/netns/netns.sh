#!/usr/bin/env bash
# Virtual nodes in separate network namespaces, so that PEs on different nodes share
# neither memory nor a loopback device: each node K is namespace tandem-<tag>-nK with one
# veth (named tdm0 inside, address 10.77.<tag-octet>.(K+1)/24) plugged into a bridge that
# lives in a hub namespace (which has address 10.77.<tag-octet>.254 on it); the host's own
# networking is not touched.  Needs root and iproute2.
#
#   netns.sh up K [RATE [DELAY]]   create K nodes; optional tc shaping of every node's link
#                                  (e.g. RATE=10gbit DELAY=5us, a NIC-like link)
#   netns.sh down                  remove them
#   netns.sh pe PROG ARGS...       run one PE with its network endpoint in its node's
#                                  namespace (node = PMIX_RANK / TANDEM_TEST_NETNS_PES_PER_NODE);
#                                  the PE itself starts in the launcher's namespace, since the
#                                  PMIx connection to the launcher runs over its loopback
# TANDEM_TEST_NETNS_TAG (default: the shell's pid at `up`, saved in the environment of `pe` by the
# caller) keeps concurrent runs apart.
set -euo pipefail

tag=${TANDEM_TEST_NETNS_TAG:?set TANDEM_TEST_NETNS_TAG to a short number naming this run}
octet=$((tag % 250 + 1))
hub="tandem-$tag-hub"

case "${1:-}" in
  up)
    nodes=${2:?number of nodes}
    rate=${3:-}
    delay=${4:-}
    ip netns add "$hub"
    ip -n "$hub" link add br0 type bridge
    ip -n "$hub" link set br0 up
    ip -n "$hub" link set lo up
    # The hub's own address on the bridge, for daemons that serve every node (a controller).
    ip -n "$hub" addr add "10.77.$octet.254/24" dev br0
    for ((k = 0; k < nodes; k++)); do
      ns="tandem-$tag-n$k"
      ip netns add "$ns"
      ip -n "$ns" link set lo up
      ip link add "tdm$tag-$k" type veth peer name tdm0 netns "$ns"
      ip link set "tdm$tag-$k" netns "$hub"
      ip -n "$hub" link set "tdm$tag-$k" master br0 up
      ip -n "$ns" addr add "10.77.$octet.$((k + 1))/24" dev tdm0
      ip -n "$ns" link set tdm0 up
      if [ -n "$rate" ]; then
        # netem models rate and delay; kernels without it still shape the rate with tbf.
        if ! ip netns exec "$ns" tc qdisc add dev tdm0 root netem rate "$rate" ${delay:+delay "$delay"} 2>/dev/null; then
          ip netns exec "$ns" tc qdisc add dev tdm0 root tbf rate "$rate" burst 256kb latency 10ms
          [ -z "$delay" ] || [ "$k" -gt 0 ] || echo "netns.sh: this kernel has no netem: shaping the rate only, no added delay" >&2
        fi
      fi
    done
    ;;
  down)
    for ns in $(ip netns list | awk '{print $1}' | grep "^tandem-$tag-" || true); do
      ip netns del "$ns"
    done
    ;;
  pe)
    shift
    per_node=${TANDEM_TEST_NETNS_PES_PER_NODE:?PEs per node}
    node=$((PMIX_RANK / per_node))
    # Both providers that these tests use must listen on the node's link, not on loopback.
    export FI_TCP_IFACE=tdm0 FI_SOCKETS_IFACE=tdm0 TANDEM_NETNS="/var/run/netns/tandem-$tag-n$node"
    exec "$@"
    ;;
  *)
    echo "usage: netns.sh up K [RATE [DELAY]] | down | pe PROG ARGS..." >&2
    exit 2
    ;;
esac
