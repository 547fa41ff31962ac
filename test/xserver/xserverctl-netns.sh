# shellcheck shell=bash
# Sourced by xserverctl: the network of a cluster started with --netns, where
# a member can be cut off silently (see README.md, "Partitions").
#
# Layout, for a cluster whose first xserverd port is P (A.B = P's two bytes,
# so clusters of different ports never share an address or a name):
#   namespace xsP-mI  member I: mariadbd (Galera) and xserverd, with
#                     `cli` 10.A.B.(10+I) on the client network (xserverd)
#                     `clu` 10.A.B.(138+I) on the cluster network (Galera)
#   namespace xsP-bx  bridge `br0` of the client network, ports m1..mN, host
#   namespace xsP-bc  bridge `br0` of the cluster network, ports m1..mN
#   host: `xsP` 10.A.B.1/25, its peer is port `host` of the client bridge:
#         the host reaches the client network only.
# Every neighbour entry is static (nud permanent), so after a cut nobody asks
# ARP and learns "host unreachable": packets vanish and senders retransmit,
# as across a real partition. A cut sets a bridge port's state to disabled:
# the bridge drops everything that port receives or would send, and both
# ends of the veth still see their link up.
# Needs root (CAP_NET_ADMIN and the right to create namespaces).

ns_prefix() { echo "xs$1"; }
# $1: port, $2: host part -> the address
ns_addr() { echo "10.$((($1 >> 8) & 255)).$(($1 & 255)).$2"; }
ns_client_addr() { ns_addr "$1" $((10 + $2)); }
ns_cluster_addr() { ns_addr "$1" $((138 + $2)); }
# $1: port, $2: 1 client / 2 cluster, $3: host part -> a fixed local MAC
ns_mac() { printf '02:0a:%02x:%02x:%02x:%02x' $((($1 >> 8) & 255)) $(($1 & 255)) "$2" "$3"; }

ns_exists() { [ -e "/var/run/netns/$1" ]; }

# Without root it exits 77, the exit code of a skipped test (ctest's
# SKIP_RETURN_CODE): the partition tests are then reported skipped.
ns_need_root() {
  [ "$(id -u)" = 0 ] || { log "--netns needs root (network namespaces, veth pairs, bridges): skipped"; exit 77; }
  command -v ip >/dev/null || die "--netns needs iproute2's ip"
}

# A namespace with lo up and IPv6 off (no router solicitations or DAD
# packets on links that are meant to be quiet).
ns_create() {
  ip netns add "$1"
  ip -n "$1" link set lo up
  ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
}

# $1: port, $2: members. Idempotent: an existing setup (members may run in
# it) is kept.
ns_setup() {
  local p=$1 n=$2 pre i j br
  pre=$(ns_prefix "$p")
  ns_exists "$pre-bx" && return 0
  ns_need_root
  log "network namespaces $pre-*: client network $(ns_addr "$p" 0)/25, cluster network $(ns_addr "$p" 128)/25"
  for br in bx bc; do
    ns_create "$pre-$br"
    ip -n "$pre-$br" link add name br0 type bridge stp_state 0 forward_delay 0
    ip -n "$pre-$br" link set br0 up
  done
  for i in $(seq 1 "$n"); do
    ns_create "$pre-m$i"
    ip link add cli netns "$pre-m$i" address "$(ns_mac "$p" 1 $((10 + i)))" type veth \
      peer name "m$i" netns "$pre-bx"
    ip link add clu netns "$pre-m$i" address "$(ns_mac "$p" 2 $((138 + i)))" type veth \
      peer name "m$i" netns "$pre-bc"
    ip -n "$pre-m$i" addr add "$(ns_client_addr "$p" "$i")/25" dev cli
    ip -n "$pre-m$i" addr add "$(ns_cluster_addr "$p" "$i")/25" dev clu
    ip -n "$pre-m$i" link set cli up
    ip -n "$pre-m$i" link set clu up
    for br in bx bc; do
      ip -n "$pre-$br" link set "m$i" master br0
      ip -n "$pre-$br" link set "m$i" up
    done
  done
  ip link add "$pre" address "$(ns_mac "$p" 1 1)" type veth peer name host netns "$pre-bx"
  ip addr add "$(ns_addr "$p" 1)/25" dev "$pre"
  ip link set "$pre" up
  ip -n "$pre-bx" link set host master br0
  ip -n "$pre-bx" link set host up
  # Static neighbours everywhere: the host and each member know every
  # client address, each member every cluster address.
  for i in $(seq 1 "$n"); do
    ip neigh replace "$(ns_client_addr "$p" "$i")" lladdr "$(ns_mac "$p" 1 $((10 + i)))" \
      dev "$pre" nud permanent
    ip -n "$pre-m$i" neigh replace "$(ns_addr "$p" 1)" lladdr "$(ns_mac "$p" 1 1)" dev cli nud permanent
    for j in $(seq 1 "$n"); do
      [ "$i" = "$j" ] && continue
      ip -n "$pre-m$i" neigh replace "$(ns_client_addr "$p" "$j")" \
        lladdr "$(ns_mac "$p" 1 $((10 + j)))" dev cli nud permanent
      ip -n "$pre-m$i" neigh replace "$(ns_cluster_addr "$p" "$j")" \
        lladdr "$(ns_mac "$p" 2 $((138 + j)))" dev clu nud permanent
    done
  done
}

# Removes every namespace of the cluster (the veths go with them). Members
# must be stopped first: a process keeps its namespace alive.
ns_teardown() {
  local pre ns
  pre=$(ns_prefix "$1")
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$pre-" || true); do
    ip netns del "$ns" && log "removed network namespace $ns"
  done
  ip link del "$pre" 2>/dev/null || true
}

# $1: port, $2: member, $3: cluster|client|both, $4: 0 (cut) or 3 (forward)
ns_port_state() {
  local pre br
  pre=$(ns_prefix "$1")
  ns_exists "$pre-bx" || die "the cluster was not started with --netns"
  case "$3" in
    client) br="bx" ;;
    cluster) br="bc" ;;
    both) ns_port_state "$1" "$2" client "$4"; ns_port_state "$1" "$2" cluster "$4"; return ;;
    *) die "--link: cluster, client or both" ;;
  esac
  # Linux refuses a port state while the port's link is not yet reported
  # up (linkwatch runs a moment after a veth comes up): retried for 2 s.
  local i
  for i in $(seq 1 20); do
    bridge -n "$pre-$br" link set dev "m$2" state "$4" 2>/dev/null && return 0
    sleep 0.1
  done
  bridge -n "$pre-$br" link set dev "m$2" state "$4"
}
