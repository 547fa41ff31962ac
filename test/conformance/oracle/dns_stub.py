#!/usr/bin/env python3
"""A tiny DNS server for Oracle's dns_srv tests (RFC 1035 messages, RFC 2782 SRV).

  dns_stub.py --srv NAME --port PORT [--target HOST] [--listen ADDR] [--dns-port N]

Answers UDP queries: SRV for NAME, one record (priority 0, weight 0) to
TARGET:PORT; A for TARGET (127.0.0.1), AAAA for TARGET with no address (the
X server under test listens on 127.0.0.1); NXDOMAIN for every other name,
such as the tests' `_mysqlx._tcp._notfound.localhost`. Anything that is not
one plain query (too short, a response, several questions, compressed or
oversized names) gets FORMERR or NOTIMP when its header can be read, and is
dropped otherwise: the server never stops on a bad datagram.

run.py imports it (Server) and runs it in a thread for the length of a test
run; the command line is for trying it by hand.
"""
import argparse
import socket
import struct
import threading

TYPE_A, TYPE_AAAA, TYPE_SRV, CLASS_IN = 1, 28, 33, 1
RCODE_FORMERR, RCODE_NXDOMAIN, RCODE_NOTIMP = 1, 3, 4
MAX_NAME = 255  # RFC 1035 2.3.4: octets of a name on the wire
MAX_LABEL = 63
TTL = 60


def encode_name(dotted):
    """'a.bc' -> b'\\x01a\\x02bc\\x00', uncompressed (RFC 2782: no compression in SRV's target)."""
    out = b""
    for label in dotted.strip(".").split("."):
        raw = label.encode("ascii")
        if not raw or len(raw) > MAX_LABEL:
            raise ValueError("bad DNS label in %r" % dotted)
        out += bytes([len(raw)]) + raw
    out += b"\x00"
    if len(out) > MAX_NAME:
        raise ValueError("DNS name too long: %r" % dotted)
    return out


def parse_question(msg):
    """(id, flags, lowercased name, qtype, qclass, end of the question) or None if malformed."""
    if len(msg) < 12:
        return None
    qid, flags, qdcount = struct.unpack("!HHH", msg[:6])
    if qdcount != 1:
        return None
    labels, pos = [], 12
    while True:
        if pos >= len(msg):
            return None
        length = msg[pos]
        if length == 0:
            pos += 1
            break
        # A query's only name has nothing to point back at: compression
        # (0xC0) or the reserved label types are malformed here.
        if length > MAX_LABEL or pos + 1 + length > len(msg) or pos + 1 + length - 12 >= MAX_NAME:
            return None
        labels.append(msg[pos + 1:pos + 1 + length].decode("ascii", "replace").lower())
        pos += 1 + length
    if pos + 4 > len(msg):
        return None
    qtype, qclass = struct.unpack("!HH", msg[pos:pos + 4])
    return qid, flags, ".".join(labels), qtype, qclass, pos + 4


def header(qid, query_flags, rcode, qdcount, ancount):
    # QR and AA set; the opcode and RD copied from the query; RA set, as the
    # resolver expects of the server it was given.
    flags = 0x8000 | (query_flags & 0x7800) | 0x0400 | (query_flags & 0x0100) | 0x0080 | rcode
    return struct.pack("!HHHHHH", qid, flags, qdcount, ancount, 0, 0)


def record(rtype, rdata):
    # The owner is a pointer to the question's name at offset 12.
    return struct.pack("!HHHIH", 0xC00C, rtype, CLASS_IN, TTL, len(rdata)) + rdata


class Zone:
    """The names the stub knows: one SRV name and its target."""

    def __init__(self, srv_name, port, target="localhost"):
        self.srv_name = srv_name.strip(".").lower()
        self.target = target.strip(".").lower()
        self.srv_rdata = struct.pack("!HHH", 0, 0, port) + encode_name(self.target)

    def answer(self, msg):
        """The reply to datagram `msg`, or None when it deserves none."""
        q = parse_question(msg)
        if q is None:
            if len(msg) < 12 or msg[2] & 0x80:  # no header to answer, or a response
                return None
            qid, flags = struct.unpack("!HH", msg[:4])
            return header(qid, flags, RCODE_FORMERR, 0, 0)
        qid, flags, name, qtype, qclass, end = q
        question = msg[12:end]
        if flags & 0x8000:
            return None
        if flags & 0x7800 or qclass != CLASS_IN:  # only standard queries, class IN
            return header(qid, flags, RCODE_NOTIMP, 1, 0) + question
        records = []
        if name == self.srv_name:
            if qtype == TYPE_SRV:
                records.append(record(TYPE_SRV, self.srv_rdata))
        elif name == self.target:
            if qtype == TYPE_A:
                records.append(record(TYPE_A, socket.inet_aton("127.0.0.1")))
        else:
            return header(qid, flags, RCODE_NXDOMAIN, 1, 0) + question
        # A known name without records of that type: NOERROR, no answer.
        return header(qid, flags, 0, 1, len(records)) + question + b"".join(records)


class Server:
    """Serves `zone` on UDP (addr, port) from a thread; counts what was asked."""

    def __init__(self, zone, sock):
        self.zone = zone
        self.sock = sock
        self.asked = {}  # (name, qtype) -> count
        self.lock = threading.Lock()
        self.stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        self.sock.settimeout(0.1)
        while not self.stopping:
            try:
                msg, peer = self.sock.recvfrom(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            q = parse_question(msg)
            if q is not None:
                with self.lock:
                    key = (q[2], q[3])
                    self.asked[key] = self.asked.get(key, 0) + 1
            reply = self.zone.answer(msg)
            if reply is not None:
                try:
                    self.sock.sendto(reply, peer)
                except OSError:
                    pass

    def count(self, name, qtype):
        with self.lock:
            return self.asked.get((name.lower(), qtype), 0)

    def questions(self):
        """{(name, qtype): count} of every query so far."""
        with self.lock:
            return dict(self.asked)

    def close(self):
        self.stopping = True
        self.thread.join()
        self.sock.close()


def bind_udp(addresses, port):
    """A UDP socket bound to the first of `addresses` free on `port`."""
    last = None
    for addr in addresses:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.bind((addr, port))
            return s
        except OSError as e:
            s.close()
            last = e
    raise OSError("no free address for a DNS stub on UDP port %d: %s" % (port, last))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--srv", required=True, help="the SRV name, e.g. _mysqlx._tcp.x.test")
    ap.add_argument("--port", type=int, required=True, help="the port the SRV record names")
    ap.add_argument("--target", default="localhost")
    ap.add_argument("--listen", default="127.0.0.1")
    ap.add_argument("--dns-port", type=int, default=53)
    args = ap.parse_args()
    server = Server(Zone(args.srv, args.port, args.target), bind_udp([args.listen], args.dns_port))
    print("dns_stub: %s:%d answers SRV %s -> %s:%d" %
          (args.listen, args.dns_port, args.srv, args.target, args.port), flush=True)
    try:
        server.thread.join()
    except KeyboardInterrupt:
        server.close()


if __name__ == "__main__":
    main()
