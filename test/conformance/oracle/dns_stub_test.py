#!/usr/bin/env python3
"""Tests of dns_stub.py and of run.py's private resolv.conf (ctest conformance_oracle_dns_stub).

No server needed. The resolv.conf tests need root and unshare(1); without
them they skip and the program exits 77 (ctest's SKIP_RETURN_CODE).
"""
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import dns_stub  # noqa: E402
import run  # noqa: E402

SRV = "_mysqlx._tcp.oracle.mysqlx.test"


def query(name, qtype, qid=0x1234, flags=0x0100, qdcount=1):
    return (struct.pack("!HHHHHH", qid, flags, qdcount, 0, 0, 0) + dns_stub.encode_name(name) +
            struct.pack("!HH", qtype, dns_stub.CLASS_IN))


def unpack(reply):
    """(id, rcode, qdcount, ancount, rdata of the first answer or None)."""
    qid, flags, qd, an = struct.unpack("!HHHH", reply[:8])
    rdata = None
    if an:
        pos = 12
        while reply[pos]:
            pos += 1 + reply[pos]
        pos += 5  # root label, QTYPE, QCLASS
        owner, _, _, _, length = struct.unpack("!HHHIH", reply[pos:pos + 12])
        assert owner == 0xC00C
        rdata = reply[pos + 12:pos + 12 + length]
    return qid, flags & 0xF, qd, an, rdata


class ZoneTest(unittest.TestCase):
    def setUp(self):
        self.zone = dns_stub.Zone(SRV, 23196)

    def test_srv_points_at_target_and_port(self):
        qid, rcode, qd, an, rdata = unpack(self.zone.answer(query(SRV.upper(), 33, qid=77)))
        self.assertEqual((qid, rcode, qd, an), (77, 0, 1, 1))
        prio, weight, port = struct.unpack("!HHH", rdata[:6])
        self.assertEqual((prio, weight, port), (0, 0, 23196))
        self.assertEqual(rdata[6:], b"\x09localhost\x00")  # uncompressed (RFC 2782)

    def test_other_names_are_nxdomain(self):
        for name in ("_mysqlx._tcp._notfound.localhost", "_mysqlx._tcp.localhost", "x.test"):
            self.assertEqual(unpack(self.zone.answer(query(name, 33)))[1:4], (3, 1, 0), name)

    def test_target_has_an_ipv4_address_only(self):
        self.assertEqual(unpack(self.zone.answer(query("localhost", 1)))[4], b"\x7f\x00\x00\x01")
        self.assertEqual(unpack(self.zone.answer(query("localhost", 28)))[1:4], (0, 1, 0))
        self.assertEqual(unpack(self.zone.answer(query(SRV, 1)))[1:4], (0, 1, 0))

    def test_malformed_queries(self):
        good = query(SRV, 33)
        self.assertIsNone(self.zone.answer(good[:11]))  # no header
        self.assertIsNone(self.zone.answer(query(SRV, 33, flags=0x8100)))  # a response
        formerr = [good[:20],  # cut inside the name
                   good[:-2],  # cut inside QCLASS
                   query(SRV, 33, qdcount=2),
                   good[:12] + b"\xc0\x0c" + good[-4:],  # a compression pointer
                   good[:12] + b"\x40" + b"a" * 64 + b"\x00" + good[-4:],  # label > 63
                   good[:12] + (b"\x3f" + b"a" * 63) * 4 + b"\x00" + good[-4:]]  # name > 255
        for msg in formerr:
            self.assertEqual(unpack(self.zone.answer(msg))[1:4], (1, 0, 0), msg)
        self.assertEqual(unpack(self.zone.answer(query(SRV, 33, flags=0x2100)))[1], 4)  # UPDATE

    def test_random_datagrams_never_raise(self):
        rng = random.Random(2782)
        good = query(SRV, 33)
        for _ in range(5000):
            msg = bytearray(good)
            for _ in range(rng.randint(1, 6)):
                msg[rng.randrange(len(msg))] = rng.randrange(256)
            self.zone.answer(bytes(msg[:rng.randint(0, len(msg))]))
            self.zone.answer(bytes(rng.randrange(256) for _ in range(rng.randint(0, 64))))


class ServerTest(unittest.TestCase):
    def test_answers_after_garbage_and_counts(self):
        sock = dns_stub.bind_udp(["127.0.0.1"], 0)
        server = dns_stub.Server(dns_stub.Zone(SRV, 1), sock)
        try:
            client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            client.settimeout(5)
            client.sendto(b"\xff" * 3, sock.getsockname())
            client.sendto(query(SRV, 33, qid=9), sock.getsockname())
            self.assertEqual(unpack(client.recv(4096))[:4], (9, 0, 1, 1))
            self.assertEqual(server.count(SRV, 33), 1)
            client.close()
        finally:
            server.close()

    def test_bind_takes_the_next_free_address(self):
        first = dns_stub.bind_udp(["127.0.0.1"], 0)
        port = first.getsockname()[1]
        second = dns_stub.bind_udp(["127.0.0.1", "127.0.0.2"], port)
        self.assertEqual(second.getsockname(), ("127.0.0.2", port))
        first.close()
        second.close()
        with self.assertRaises(OSError):
            with dns_stub.bind_udp(["127.0.0.1"], port):
                dns_stub.bind_udp(["127.0.0.1"], port)


def can_unshare():
    return os.geteuid() == 0 and shutil.which("unshare") and subprocess.run(
        ["unshare", "--mount", "true"], stderr=subprocess.DEVNULL).returncode == 0


@unittest.skipUnless(can_unshare(), "needs root and unshare --mount")
class NamespaceTest(unittest.TestCase):
    """run.py's setup: two at once, and NAMESPACE_SCRIPT under each shape
    /etc/resolv.conf can take.

    Each case runs in a mount namespace of its own where a copy of /etc
    (resolv.conf as the case wants it) is bound over /etc; the script runs
    in a namespace inside that one and prints /etc/resolv.conf as the
    program would read it. The copy must come out unchanged.
    """

    def run_case(self, shape):
        with tempfile.TemporaryDirectory() as tmp:
            etc, work = os.path.join(tmp, "etc"), os.path.join(tmp, "work")
            shutil.copytree("/etc", etc, symlinks=True)
            os.mkdir(work)
            conf, real = os.path.join(tmp, "stub.conf"), os.path.join(tmp, "real.conf")
            with open(conf, "w", encoding="ascii") as f:
                f.write("nameserver 127.53.0.1\n")
            with open(real, "w", encoding="ascii") as f:
                f.write("nameserver 192.0.2.1\n")
            target = os.path.join(etc, "resolv.conf")
            if os.path.lexists(target):
                os.remove(target)
            if shape == "file":
                shutil.copy(real, target)
            elif shape == "symlink":
                os.symlink(real, target)
            elif shape == "dangling":
                os.symlink(os.path.join(tmp, "gone", "resolv.conf"), target)
            before = sorted(os.listdir(etc))
            inner = ["unshare", "--mount", "--", "sh", "-c", run.NAMESPACE_SCRIPT, "sh", conf,
                     work, "127.53.0.1", "cat", "/etc/resolv.conf"]
            out = subprocess.run(
                ["unshare", "--mount", "--", "sh", "-c", 'mount --bind "$0" /etc && exec "$@"',
                 etc] + inner, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual((out.returncode, out.stdout), (0, "nameserver 127.53.0.1\n"), shape)
            self.assertEqual(sorted(os.listdir(etc)), before, shape)
            self.assertFalse(os.path.exists(os.path.join(tmp, "gone")), shape)
            with open(real, encoding="ascii") as f:
                self.assertEqual(f.read(), "nameserver 192.0.2.1\n", shape)

    def test_file(self):
        self.run_case("file")

    def test_symlink(self):
        self.run_case("symlink")

    def test_missing(self):
        self.run_case("missing")

    def test_dangling_symlink(self):
        self.run_case("dangling")

    def test_concurrent_runs_get_stubs_of_their_own(self):
        # Same pid, so the same first candidate: the second takes the next.
        with tempfile.TemporaryDirectory() as t1, tempfile.TemporaryDirectory() as t2, \
                run.dns_srv_setup(1001, t1) as (p1, _, s1), \
                run.dns_srv_setup(1002, t2) as (p2, _, s2):
            a1, a2 = p1[-1], p2[-1]
            self.assertNotEqual(a1, a2)
            for address, stub, port in ((a1, s1, 1001), (a2, s2, 1002)):
                client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                client.settimeout(5)
                client.sendto(query(run.SRV_NAME, 33), (address, 53))
                rdata = unpack(client.recv(4096))[4]
                self.assertEqual(struct.unpack("!H", rdata[4:6])[0], port)
                self.assertEqual(stub.count(run.SRV_NAME, 33), 1)
                client.close()


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    if not result.wasSuccessful():
        sys.exit(1)
    sys.exit(77 if result.skipped else 0)
